import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ErrorCard } from "~/components/general-error-boundary";
import { buttonStyles } from "~/components/ui/button-styles";
import { useLocale } from "~/features/i18n/use-locale";

/** The error page of a catalogue or product page: a way back into the catalogue (`onward`), and one home. */
export function CatalogueErrorCard({
  title,
  message,
  onward,
}: {
  title: string;
  message: string;
  onward: { to: string; label: ReactNode };
}) {
  const { path } = useLocale();
  return (
    <ErrorCard title={title} message={message} titleClassName="text-4xl font-bold text-foreground">
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={onward.to} className={buttonStyles.primary}>
          {onward.label}
        </Link>
        <Link to={path("/")} className={buttonStyles.secondary}>
          <Trans>Return to Home</Trans>
        </Link>
      </div>
    </ErrorCard>
  );
}
