import { useState } from "react";
import type { CardItem } from "../types";
import { CardGrid } from "./CardGrid";
import { CardModal } from "./CardModal";

interface CardListPageProps {
  title: string;
  intro: string;
  items: CardItem[];
}

/** The shared body of /projects and /Collabrations: heading, grid and modal. */
export function CardListPage({ title, intro, items }: CardListPageProps) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = items.find((item) => item.id === selectedId) ?? null;

  return (
    <main id="main" className="list-page">
      <div className="container">
        <header className="list-page__header">
          <h1 className="list-page__title">{title}</h1>
          <p className="list-page__intro">{intro}</p>
        </header>
        <CardGrid items={items} selectedId={selectedId} onSelect={(item) => setSelectedId(item.id)} />
      </div>
      <CardModal item={selected} onClose={() => setSelectedId(null)} />
    </main>
  );
}
