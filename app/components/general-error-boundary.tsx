import type { ReactNode } from "react";
import { type ErrorResponse, isRouteErrorResponse, useRouteError } from "react-router";

/** Draws the page for one thrown `data(…, { status })` response. */
export type StatusHandler = (info: { error: ErrorResponse }) => ReactNode;

/** The HTTP status an error page answers with: a thrown response's own, anything else a 500. */
export function errorStatusOf(error: unknown): number {
  return isRouteErrorResponse(error) ? error.status : 500;
}

/** Hands an error on to the next boundary up; a handler that has nothing to say for an error calls this. */
export function rethrow(error: unknown): never {
  throw error;
}

/**
 * Every route's ErrorBoundary: picks the page for the thrown status (or for an unexpected error)
 * and adds no markup of its own, so each page keeps exactly the HTML it had.
 */
export function GeneralErrorBoundary({
  statusHandlers,
  defaultStatusHandler = ({ error }) => rethrow(error),
  unexpectedErrorHandler = rethrow,
}: {
  statusHandlers?: Partial<Record<number, StatusHandler>>;
  defaultStatusHandler?: StatusHandler;
  unexpectedErrorHandler?: (error: unknown) => ReactNode;
}) {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) return <>{unexpectedErrorHandler(error)}</>;
  const handler = statusHandlers?.[error.status] ?? defaultStatusHandler;
  return <>{handler({ error })}</>;
}

/** The centred card of an error page: a heading, one line of explanation and the ways out. */
export function ErrorCard({
  title,
  message,
  titleClassName = "text-4xl font-bold",
  children,
}: {
  title: ReactNode;
  message: ReactNode;
  titleClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className={titleClassName}>{title}</h1>
      <p className="mt-4 text-soft">{message}</p>
      {children}
    </div>
  );
}
