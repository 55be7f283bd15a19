import { CardListPage } from "../components/CardListPage";
import { useCollection } from "../data/useCollection";

export function CollabrationsPage() {
  const collabrations = useCollection("collabrations");
  return (
    <CardListPage
      title="Collabrations"
      intro="The architects, contractors and distributors we work with across Jordan, the Gulf, Europe and the United States."
      items={collabrations}
    />
  );
}
