import { CardListPage } from "../components/CardListPage";
import { useCollection } from "../data/useCollection";

export function ProjectsPage() {
  const projects = useCollection("projects");
  return (
    <CardListPage
      title="Projects"
      intro="Façades, floors, stairs and worktops in marble, Jerusalem stone and granite, from Amman to the Gulf and Europe."
      items={projects}
    />
  );
}
