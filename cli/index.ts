import { setConversationDoorbell } from "~/features/support-conversation/conversation-doorbell.server";
import {
  createConfiguredDoorbell,
  type SharedDoorbell,
} from "~/features/support-conversation/conversation-live.server";
import { closeDatabase } from "~/platform/db.server";
import { closeRedis } from "~/platform/redis.server";
import { runCatalogCli } from "./catalog";
import { runContentCli } from "./content";
import { runDbCli } from "./db";
import { runIncidentsCli } from "./incidents";
import { runMailCli } from "./mail";
import { runOrdersCli } from "./orders";
import { runReleasesCli } from "./releases";
import { runStatusCli } from "./status";
import { runStaffCli } from "./staff";
import { runSupportCli } from "./support";

/** Operator commands, one registration line each: `npm run cli -- <command> ...`. */
const commands: Record<string, { summary: string; run: (argv: string[]) => Promise<number> }> = {
  status: { summary: "list or set product status rows on /status", run: runStatusCli },
  incidents: { summary: "list, add or resolve incidents shown on /status", run: runIncidentsCli },
  support: {
    summary: "support chat requests and their delivery; open conversations, answer or resolve one",
    run: runSupportCli,
  },
  mail: {
    summary: "list the mail outbox: kept mail (no SMTP_URL) and mail sent, with its text by --id",
    run: runMailCli,
  },
  orders: { summary: "list or show checkout orders and the shop notifications that changed them", run: runOrdersCli },
  releases: {
    summary: "a product's releases: add one with its files (hashed here), list them, publish or yank one",
    run: runReleasesCli,
  },
  catalog: {
    summary: "the connected shop's catalogue: last sync, a starter content overlay, overlay entries the shop dropped",
    run: runCatalogCli,
  },
  staff: {
    summary: "the console's team: invite (a one-time passkey setup link), list, remove, end someone's sessions",
    run: runStaffCli,
  },
  content: {
    summary:
      "what the owner published in the console: export it into content files (git), list overrides a deploy changed beneath",
    run: runContentCli,
  },
  db: {
    summary: "export or import the shop's data as JSON Lines (SQLite <-> PostgreSQL), or back up SQLite",
    run: runDbCli,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: npm run cli -- <command> [arguments] [--json]\n\nCommands:\n${lines.join("\n")}\n\nRun "npm run cli -- <command> --help" for details.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  if (name !== "support") return command.run(rest);
  // A reply or resolution stored here rings the running instances (PostgreSQL NOTIFY or Redis), so open pages show
  // it at once; SQLite's instance finds it by its check each second.
  const bell = conversationBell();
  if (bell) setConversationDoorbell(bell);
  try {
    return await command.run(rest);
  } finally {
    await bell?.close();
    await closeDatabase();
    await closeRedis();
  }
}

/** The instances' shared doorbell, or none (SQLite, or a configuration the command itself will report as invalid). */
function conversationBell(): SharedDoorbell | undefined {
  try {
    return createConfiguredDoorbell(() => {});
  } catch {
    return undefined;
  }
}

process.exitCode = await main(process.argv.slice(2));
