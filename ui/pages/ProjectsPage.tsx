import { CardListPage } from "../components/CardListPage";
import { useCollection } from "../hooks/useCollection";
import { useLocale } from "../i18n/locale";

export function ProjectsPage() {
  const projects = useCollection("projects");
  const text = useLocale().messages.lists;
  return <CardListPage title={text.projectsTitle} intro={text.projectsIntro} items={projects} />;
}
