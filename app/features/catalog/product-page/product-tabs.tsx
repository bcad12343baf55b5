import { useLingui } from "@lingui/react/macro";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import type { ProductTab } from "../catalog.content";

/** A content tab's plain text as paragraphs: each block between blank lines one paragraph. */
function TabText({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((block) => block.trim())
        .filter(Boolean)
        .map((block) => (
          <p key={block}>{block}</p>
        ))}
    </>
  );
}

function TabBody({ tab, lang }: { tab: ProductTab; lang: string | undefined }) {
  if (tab.html !== undefined)
    return (
      <div
        lang={lang}
        className="space-y-3 [&_a]:text-link [&_a]:underline [&_ol]:list-decimal [&_ol]:ps-6 [&_ul]:list-disc [&_ul]:ps-6"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the shop's tab, sanitised on the server like its description (shop-catalogue.server.ts).
        dangerouslySetInnerHTML={{ __html: tab.html }}
      />
    );
  return (
    <div className="space-y-3">
      <TabText text={tab.text ?? ""} />
    </div>
  );
}

/**
 * The product's tabs (WAI-ARIA tabs: one tab stop, arrow keys, Home and End move between tabs and show their panel).
 * Before JavaScript runs, and without it, every panel is shown in order under its own heading; the page places them
 * below the fold, so the switch to tabs moves nothing the buyer is looking at.
 */
export function ProductTabs({ tabs, shopLang }: { tabs: readonly ProductTab[]; shopLang?: string }) {
  const { t } = useLingui();
  const id = useId();
  const [interactive, setInteractive] = useState(false);
  const [selected, setSelected] = useState(0);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  useEffect(() => setInteractive(true), []);
  if (tabs.length === 0) return null;
  const label = t({ message: "More about this product", comment: "Names the product's tabs (details, requirements…)" });

  if (!interactive || tabs.length === 1) {
    return (
      <section aria-label={label} className="mt-12 space-y-8 text-soft" data-testid="product-tabs">
        {tabs.map((tab, index) => (
          <section key={index} aria-labelledby={`${id}-h${index}`}>
            <h2 id={`${id}-h${index}`} className="mb-3 text-lg font-semibold text-foreground">
              {tab.title}
            </h2>
            <TabBody tab={tab} lang={tab.html !== undefined ? shopLang : undefined} />
          </section>
        ))}
      </section>
    );
  }

  function move(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
    const keys: Record<string, number> = {
      ArrowRight: rtl ? index - 1 : index + 1,
      ArrowLeft: rtl ? index + 1 : index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = keys[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = (target + tabs.length) % tabs.length;
    setSelected(next);
    buttons.current[next]?.focus();
  }

  return (
    <section aria-label={label} className="mt-12" data-testid="product-tabs">
      <div role="tablist" aria-label={label} className="flex flex-wrap gap-1 border-b border-foreground/10">
        {tabs.map((tab, index) => (
          <button
            key={index}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-t${index}`}
            aria-selected={index === selected}
            aria-controls={`${id}-p${index}`}
            tabIndex={index === selected ? 0 : -1}
            onClick={() => setSelected(index)}
            onKeyDown={(event) => move(event, index)}
            className={`-mb-px rounded-t-lg border-b-2 px-4 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-focus ${
              index === selected
                ? "border-accent text-foreground"
                : "border-transparent text-soft hover:text-foreground"
            }`}
          >
            {tab.title}
          </button>
        ))}
      </div>
      {tabs.map((tab, index) => (
        <div
          key={index}
          role="tabpanel"
          id={`${id}-p${index}`}
          aria-labelledby={`${id}-t${index}`}
          hidden={index !== selected}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: WAI-ARIA's tabs pattern: a panel of text takes focus after its tab
          tabIndex={0}
          className="pt-4 text-soft focus-visible:outline-2 focus-visible:outline-focus"
        >
          <TabBody tab={tab} lang={tab.html !== undefined ? shopLang : undefined} />
        </div>
      ))}
    </section>
  );
}
