import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema";
import { readLatestSnapshot } from "~/features/catalog/shop-sync.server";
import { type AuditAction, type AuditEntryInput, auditedChange } from "~/features/audit/audit-log.server";
import { getContent } from "~/features/content/content.server";
import { seedStatusEntries } from "~/features/status/status.server";
import { EnvError, parseEnv } from "~/platform/env.server";

/** What an operator command needs: the shop's database, its catalogue and two output streams. */
export interface CliContext {
  db: Kysely<Database>;
  products: ReadonlyArray<{ id: number; slug: string; name: string }>;
  out(text: string): void;
  err(text: string): void;
}

export type CliCommand = (argv: string[], context: CliContext) => Promise<number>;

/** Flags every command takes (added to each command's own by parseCommandArgs). */
export const COMMON_OPTIONS = {
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** Parses a command's arguments: its own flags and COMMON_OPTIONS, an action and its operands; an unknown flag throws. */
export function parseCommandArgs<const O extends ParseArgsOptionsConfig>(argv: string[], options: O) {
  return parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...COMMON_OPTIONS, ...options } });
}

/** The flag values a command with these options gets. */
export type CommandValues<O extends ParseArgsOptionsConfig> = ReturnType<typeof parseCommandArgs<O>>["values"];

export interface StartedCommand<V> {
  values: V;
  action: string;
  rest: string[];
  /** Prints the error (as JSON with --json) and returns the exit code to end with. */
  fail(message: string, code?: number): number;
}

/**
 * The start every command shares: parse flags, print usage for --help or a missing action (exit 2 when missing).
 * Returns the exit code when the command should stop there.
 */
export function startCommand<const O extends ParseArgsOptionsConfig>(
  argv: string[],
  options: O,
  usage: string,
  { out, err }: Pick<CliContext, "out" | "err">,
): StartedCommand<CommandValues<O>> | number {
  let parsed: ReturnType<typeof parseCommandArgs<O>>;
  try {
    parsed = parseCommandArgs(argv, options);
  } catch (error) {
    err(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  // Every command has COMMON_OPTIONS; TypeScript cannot see them through the generic O, so they are named here.
  const { help, json } = values as { help?: boolean; json?: boolean };
  const [action, ...rest] = positionals;
  if (help || action === undefined || action === "help") {
    out(usage);
    return action === undefined && !help ? 2 : 0;
  }
  const fail = (message: string, code = 1) => {
    err(json ? JSON.stringify({ error: message }) : `Error: ${message}`);
    return code;
  };
  return { values, action, rest, fail };
}

/**
 * Runs a command against the database the storefront uses (DATA_DIR, or DATABASE_URL for PostgreSQL), migrated and
 * seeded like at boot so commands work before the first server start. Returns the exit code.
 */
export async function runWithDatabase(command: CliCommand, argv: string[]): Promise<number> {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const err = (text: string) => process.stderr.write(`${text}\n`);
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv(process.env);
  } catch (error) {
    err(error instanceof EnvError ? error.message : String(error));
    return 1;
  }
  quietExperimentalWarnings();
  // Loaded after the filter above: importing node:sqlite prints an "experimental" warning operators cannot act on.
  const { migrateAndSeed, openDatabase } = await import("../db/client");
  const handle = openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const content = getContent();
    await migrateAndSeed(handle, (db) => seedStatusEntries(db, content.status, { history: content.statusHistory }));
    // With a connected shop the products are the shop's, as the last sync read them.
    const products =
      env.CATALOG_SOURCE === "sellauth"
        ? ((await readLatestSnapshot(handle.db))?.snapshot.products.map((p) => ({
            id: p.id,
            slug: p.path ?? String(p.id),
            name: p.name,
          })) ?? [])
        : content.products;
    return await command(argv, { db: handle.db, products, out, err });
  } catch (error) {
    err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await handle.close();
  }
}

/** Hides Node's "experimental" warnings (node:sqlite) that operators cannot act on; other warnings still print. */
export function quietExperimentalWarnings() {
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    if (warning.name !== "ExperimentalWarning") process.stderr.write(`${warning.name}: ${warning.message}\n`);
  });
}

/** Left-aligned columns for terminal tables. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** What a writing command records of itself (the actor is `cli`). */
export interface CliAuditEntry {
  action: AuditAction;
  target: string | null;
  detail?: Record<string, unknown>;
}

/** The audit entry of a command, as auditedChange takes it. */
export function cliEntry(entry: CliAuditEntry): AuditEntryInput {
  return { actor: "cli", sessionBeganWith: "cli", ...entry, detail: entry.detail ?? null };
}

/**
 * A writing command's change and its audit entry in one transaction (docs/console.md); `entryFor` answers null when
 * nothing changed. A failing audit write undoes the change and the command fails saying so.
 */
export function auditedCliChange<T>(
  db: Kysely<Database>,
  change: (trx: Transaction<Database>) => Promise<T>,
  entryFor: (result: T) => CliAuditEntry | null | false | undefined,
): Promise<T> {
  return auditedChange(db, change, (result) => {
    const entry = entryFor(result);
    return entry ? cliEntry(entry) : null;
  });
}
