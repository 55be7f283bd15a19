import { CardListPage } from "../components/CardListPage";
import { useCollection } from "../hooks/useCollection";
import { useLocale } from "../i18n/locale";

export function CollabrationsPage() {
  const collabrations = useCollection("collabrations");
  const text = useLocale().messages.lists;
  return (
    <CardListPage
      title={text.collabrationsTitle}
      intro={text.collabrationsIntro}
      items={collabrations}
    />
  );
}
