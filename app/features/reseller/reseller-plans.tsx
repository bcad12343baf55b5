import { Trans, useLingui } from "@lingui/react/macro";
import { CheckIcon } from "~/components/icons";
import { buttonStyles } from "~/components/ui/button-styles";
import type { Plan, PlansFile } from "./reseller.content";

const PLAN_PRICE = /^\$(\d+(?:\.\d{2})?)(\/month)?$/;

/** content/plans.json writes prices the one way its check allows ("$175/month", "Custom"); the page writes them in its language. */
function PlanPrice({ price }: { price: string }) {
  const { t, i18n } = useLingui();
  const match = PLAN_PRICE.exec(price);
  if (!match?.[1])
    return t({
      message: "Custom",
      context: "reseller plan price",
      comment: "The price of a reseller plan whose terms are agreed one to one",
    });
  const amount = Number(match[1]);
  const money = i18n.number(amount, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  });
  return match[2] ? t({ message: `${money}/month`, comment: "A reseller plan's price per month" }) : money;
}

/** Resellers sign up with the team in the community chat, so `Get Started` opens it in a new tab. */
export function PlanCard({ plan, signUpUrl }: { plan: Plan; signUpUrl: string }) {
  const headingId = `plan-${plan.id}`;
  const { name } = plan;
  return (
    <article
      aria-labelledby={headingId}
      className={`relative flex h-full flex-col rounded-2xl border p-6 ${plan.highlighted ? "border-accent/70 bg-accent/10 shadow-lg shadow-accent/10" : "border-foreground/10 bg-surface/60"}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-foreground">
          {plan.name}
        </h2>
        {plan.highlighted ? (
          <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-semibold text-on-accent">
            <Trans comment="Badge on the reseller plan most resellers choose">Most popular</Trans>
          </span>
        ) : null}
        {plan.custom ? (
          <span className="rounded-full bg-accent/20 px-2 py-0.5 text-xs font-semibold text-accent-soft ring-1 ring-accent/40">
            <Trans context="reseller plan" comment="Badge on a reseller plan whose terms are agreed one to one">
              Custom
            </Trans>
          </span>
        ) : null}
      </div>
      <p className="mt-4 text-3xl font-bold tracking-tight text-foreground">
        <PlanPrice price={plan.price} />
      </p>
      <p className="mt-1 text-sm text-accent-soft">{plan.priceDetail}</p>
      <p className="mt-4 text-soft">{plan.description}</p>
      <ul className="mt-5 space-y-2 text-sm text-foreground">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <CheckIcon className="mt-0.5 size-4 shrink-0 text-success-soft" />
            {feature}
          </li>
        ))}
      </ul>
      <div className="mt-auto pt-6">
        <a
          href={signUpUrl}
          target="_blank"
          rel="noopener noreferrer"
          className={`${plan.highlighted ? buttonStyles.primary : buttonStyles.secondary} w-full`}
        >
          <Trans comment="{name} is a reseller plan; the link opens the community chat, where resellers sign up">
            Get Started<span className="sr-only"> with {name} (opens in a new tab)</span>
          </Trans>
        </a>
      </div>
    </article>
  );
}

export function ResellerPlans({ plans, signUpUrl }: { plans: PlansFile; signUpUrl: string }) {
  return (
    <>
      <ul className="grid gap-5 sm:grid-cols-2 xl:grid-cols-4">
        {plans.plans.map((plan) => (
          <li key={plan.id}>
            <PlanCard plan={plan} signUpUrl={signUpUrl} />
          </li>
        ))}
      </ul>
      {plans.includedInEveryPlan.length ? (
        <section
          aria-labelledby="plans-included"
          className="mt-10 rounded-2xl border border-foreground/10 bg-foreground/5 p-6 text-center"
        >
          <h2 id="plans-included" className="font-semibold text-foreground">
            <Trans>Included in every plan</Trans>
          </h2>
          <p className="mt-2 text-soft">{plans.includedInEveryPlan.join(" · ")}</p>
        </section>
      ) : null}
    </>
  );
}
