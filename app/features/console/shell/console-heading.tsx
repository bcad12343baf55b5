import type { ReactNode } from "react";

/** A console page's heading and its one-line purpose. */
export function ConsoleHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="font-bold text-2xl text-foreground">{title}</h1>
      {children ? <p className="mt-1 text-soft">{children}</p> : null}
    </div>
  );
}
