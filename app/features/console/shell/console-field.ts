/** The look of every text field and select of the console. */
export const consoleField =
  "w-full rounded-lg border border-border-strong bg-surface px-3 py-2.5 text-foreground outline-focus placeholder:text-muted";
