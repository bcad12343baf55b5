import { useEffect } from "react";
import { ChevronDownFineIcon } from "~/components/icons";
import type { FaqItem } from "./faq.content";

/**
 * One question open at a time without JavaScript: `<details name>` makes the group exclusive natively,
 * and `<summary>` is focusable and toggles with Enter/Space.
 */
export function FaqAccordion({ items, group = "faq" }: { items: FaqItem[]; group?: string }) {
  useOpenItemFromHash();
  return (
    <div className="divide-y divide-foreground/10 overflow-hidden rounded-2xl border border-foreground/10 bg-surface/60">
      {items.map((item) => (
        <details key={item.id} id={item.id} name={group} className="group scroll-mt-24">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-start font-medium text-foreground hover:bg-foreground/5 [&::-webkit-details-marker]:hidden">
            <span>{item.question}</span>
            <ChevronDownFineIcon className="size-5 shrink-0 text-link transition-transform group-open:rotate-180" />
          </summary>
          <div className="px-5 pb-5 text-soft">
            <p>{item.answer}</p>
          </div>
        </details>
      ))}
    </div>
  );
}

/** `/faq#refunds` opens that question. */
function useOpenItemFromHash() {
  useEffect(() => {
    const openFromHash = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      const target = id ? document.getElementById(id) : null;
      if (target instanceof HTMLDetailsElement) target.open = true;
    };
    openFromHash();
    window.addEventListener("hashchange", openFromHash);
    return () => window.removeEventListener("hashchange", openFromHash);
  }, []);
}
