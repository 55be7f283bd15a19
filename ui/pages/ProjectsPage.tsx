import { CardListPage } from "../components/CardListPage";
import { useCollection } from "../data/useCollection";
import { useLocale } from "../i18n/locale";

export function ProjectsPage() {
  const projects = useCollection("projects");
  const text = useLocale().messages.lists;
  return <CardListPage title={text.projectsTitle} intro={text.projectsIntro} items={projects} />;
}
