import { Trans, useLingui } from "@lingui/react/macro";
import type { Site } from "~/features/layout/site.content";

/** The four steps from choosing a product to using it. */
export function HowItWorks({ steps }: { steps: Site["howItWorks"] }) {
  const { t, i18n } = useLingui();
  return (
    <section aria-labelledby="how-it-works-heading" className="mx-auto max-w-6xl px-4">
      <h2 id="how-it-works-heading" className="text-center text-3xl font-bold text-foreground">
        <Trans>How It Works</Trans>
      </h2>
      <ol className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map((step, index) => {
          const number = i18n.number(index + 1);
          return (
            <li key={step.title} className="rounded-2xl border border-foreground/10 bg-surface/60 p-6">
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-full bg-accent/15 font-bold text-accent-soft ring-1 ring-accent/40"
              >
                {number}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-foreground">
                {/* The space after the colon keeps the step's title a word of its own for screen readers. */}
                <span className="sr-only">{`${t({ message: `Step ${number}:`, comment: "Read out before each step's title in How It Works" })} `}</span>
                {step.title}
              </h3>
              <p className="mt-2 text-sm text-soft">{step.description}</p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
