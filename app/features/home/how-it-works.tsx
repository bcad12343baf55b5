import type { Site } from "~/features/layout/site.content";

/** The four steps from choosing a product to using it. */
export function HowItWorks({ steps }: { steps: Site["howItWorks"] }) {
  return (
    <section aria-labelledby="how-it-works-heading" className="mx-auto max-w-6xl px-4">
      <h2 id="how-it-works-heading" className="text-center text-3xl font-bold text-white">
        How It Works
      </h2>
      <ol className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map((step, index) => (
          <li key={step.title} className="rounded-2xl border border-white/10 bg-slate-900/60 p-6">
            <span
              aria-hidden="true"
              className="flex size-10 items-center justify-center rounded-full bg-sky-400/15 font-bold text-sky-200 ring-1 ring-sky-400/40"
            >
              {index + 1}
            </span>
            <h3 className="mt-4 text-lg font-semibold text-white">
              <span className="sr-only">Step {index + 1}: </span>
              {step.title}
            </h3>
            <p className="mt-2 text-sm text-slate-300">{step.description}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
