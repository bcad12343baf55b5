import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { ContentError } from "~/features/content/content";
import { buildContent, contentDir } from "~/features/content/content.server";
import { driftedOverrides, publishedOverrides } from "~/features/content/content-overrides.server";
import { type CliCommand, formatTable, runWithDatabase, startCommand } from "./cli-context";

export const CONTENT_USAGE = `Usage:
  npm run cli -- content export [--dir DIR] [--json]
  npm run cli -- content status [--json]

What the owner published in the console's Content room, for shops that keep content in git (docs/content.md).
"export" writes every published override into content files of the same format: over CONTENT_DIR itself, or into
DIR as a full copy of it (the files, then the overrides on top). The result is checked as the boot checks it; a
result that would not boot is reported and, in a separate DIR, removed.
"status" lists overrides whose file default changed since they were published (a deploy brought a new file).`;

const CONTENT_OPTIONS = { dir: { type: "string" } } as const;

/** Writes the published overrides into `to` (a copy of `from` first when they differ) and checks that it boots. */
export async function exportContent(db: Kysely<Database>, from: string, to: string) {
  const overrides = await publishedOverrides(db);
  const separate = path.resolve(from) !== path.resolve(to);
  if (separate) {
    if (fs.existsSync(to) && fs.readdirSync(to).length > 0)
      throw new Error(`${to} is not empty: choose an empty or new directory`);
    fs.cpSync(from, to, { recursive: true });
  }
  for (const [file, text] of overrides) {
    const target = path.join(to, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
  }
  try {
    // The files alone, as a fresh boot would read them.
    buildContent(new Map(), to);
  } catch (error) {
    if (separate) fs.rmSync(to, { recursive: true, force: true });
    throw error;
  }
  return { files: [...overrides.keys()].sort() };
}

export const contentCommand: CliCommand = async (argv, { db, out, err }) => {
  const started = startCommand(argv, CONTENT_OPTIONS, CONTENT_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;
  if (rest.length > 0) return fail(`"content ${action}" takes no arguments (got ${rest.join(" ")})`, 2);
  if (action === "export") {
    const to = path.resolve(values.dir ?? contentDir());
    try {
      const { files } = await exportContent(db, contentDir(), to);
      if (values.json) out(JSON.stringify({ dir: to, files }, null, 2));
      else {
        out(`Exported ${files.length} published override(s) into ${to}; the content there passes the boot's checks.`);
        for (const file of files) out(`  ${file}`);
      }
      return 0;
    } catch (error) {
      if (error instanceof ContentError) return fail(`the exported content would not boot:\n${error.message}`);
      return fail((error as Error).message);
    }
  }
  if (action === "status") {
    const drifted = await driftedOverrides(db);
    const rows = drifted.map((row) => ({
      kind: row.kind,
      locale: row.locale,
      key: row.doc_key,
      revision: row.id,
      author: row.author,
      publishedAt: row.created_at,
    }));
    if (values.json) out(JSON.stringify(rows, null, 2));
    else if (rows.length === 0) out("No override's file default changed since it was published.");
    else {
      out("These overrides cover a file default that changed since they were published:");
      out(
        formatTable(
          ["DOCUMENT", "LANGUAGE", "REVISION", "BY", "PUBLISHED"],
          rows.map((r) => [
            r.key ? `${r.kind}/${r.key}` : r.kind,
            r.locale,
            String(r.revision),
            r.author,
            r.publishedAt,
          ]),
        ),
      );
    }
    return 0;
  }
  return fail(`unknown action "${action}"\n\n${CONTENT_USAGE}`, 2);
};

export function runContentCli(argv: string[]): Promise<number> {
  return runWithDatabase(contentCommand, argv);
}
