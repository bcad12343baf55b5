import type { ReactNode } from "react";

/** A form's answer: announced politely when it worked, at once (an alert) when it did not. */
export function ConsoleNotice({ failed, children }: { failed: boolean; children: ReactNode }) {
  return (
    <p role={failed ? "alert" : "status"} className={`mb-6 text-sm ${failed ? "text-danger" : "text-success"}`}>
      {children}
    </p>
  );
}
