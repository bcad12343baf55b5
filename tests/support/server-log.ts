/**
 * The secrets that appear in a server's log: `[name, value]` pairs give back the names, plain values the values.
 * `standalone` counts a value only as a token of its own (a six-digit code inside a timestamp is not that code).
 * Specs assert the answer is `[]`, so a failure names what leaked.
 */
export function secretsInLog(
  log: string,
  secrets: Iterable<string> | Record<string, string>,
  { standalone = false } = {},
): string[] {
  const named: Array<[string, string]> =
    Symbol.iterator in secrets
      ? [...(secrets as Iterable<string>)].map((value) => [value, value])
      : Object.entries(secrets as Record<string, string>);
  const appears = (value: string) =>
    standalone
      ? new RegExp(`(?<![0-9A-Za-z])${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![0-9A-Za-z])`).test(log)
      : log.includes(value);
  return named.filter(([, value]) => appears(value)).map(([name]) => name);
}

/** The log's JSON lines whose `msg` is `message` exactly. */
export function logLinesWithMessage(log: string, message: string): string[] {
  return log.split("\n").filter((line) => line.includes(`"msg":"${message}"`));
}
