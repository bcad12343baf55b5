import type { ReactNode } from "react";

/** The heading block at the top of every content page. */
export function PageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className="mb-10 text-center">
      {/* A long word (German compounds) breaks rather than push a phone-wide page sideways. */}
      <h1 className="bg-gradient-to-r from-foreground to-accent-soft bg-clip-text text-3xl font-bold tracking-tight break-words text-transparent sm:text-4xl">
        {title}
      </h1>
      {description ? <p className="mx-auto mt-3 max-w-2xl text-soft">{description}</p> : null}
      {children}
    </header>
  );
}
