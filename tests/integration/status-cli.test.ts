import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOpenIncidents, listStatusEntries, seedStatusEntries } from "~/features/status/status.server";
import { incidentsCommand } from "../../cli/incidents";
import { statusCommand } from "../../cli/status";
import type { CliContext } from "../../cli/cli-context";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const root = path.resolve(import.meta.dirname, "../..");
const products = [
  { id: 446889, slug: "vault", name: "Kestrel Vault" },
  { id: 446891, slug: "sandbox", name: "Kestrel Sandbox" },
];
const seed = [
  { name: "Kestrel Vault", status: "operational" },
  { name: "Kestrel Sandbox", status: "operational" },
];

/** Runs one command in-process and captures what it prints. */
async function run(command: typeof statusCommand, argv: string[], db: CliContext["db"]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(argv, { db, products, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

describe.each(dialects)("status and incident commands on %s", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedStatusEntries(database.handle.db, seed);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("status list --json prints every row with its stored and shown status", async () => {
    const { code, stdout } = await run(statusCommand, ["list", "--json"], database.handle.db);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      // Uptime is computed: nothing but operational time has been recorded since the seed.
      expect.objectContaining({
        name: "Kestrel Vault",
        status: "operational",
        storedStatus: "operational",
        uptime: "100.00",
      }),
      expect.objectContaining({ name: "Kestrel Sandbox", status: "operational", uptime: "100.00" }),
    ]);
  });

  it("status set changes the status by name, slug or id, records each change, and the page data shows it at once", async () => {
    expect((await run(statusCommand, ["set", "kestrel vault", "maintenance"], database.handle.db)).code).toBe(0);
    expect((await run(statusCommand, ["set", "sandbox", "outage"], database.handle.db)).code).toBe(0);
    const { code, stdout } = await run(statusCommand, ["set", "446889", "Outage", "--json"], database.handle.db);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ name: "Kestrel Vault", status: "outage" });
    // The page loader and GET /api/status read these rows (reusing a read for at most a second).
    expect((await listStatusEntries(database.handle.db)).map((e) => [e.name, e.status, e.days.at(-1)])).toEqual([
      ["Kestrel Vault", "outage", "x"],
      ["Kestrel Sandbox", "outage", "x"],
    ]);
    const changes = await database.handle.db
      .selectFrom("status_changes")
      .select(["name", "status", "source"])
      .orderBy("id")
      .execute();
    expect(changes).toEqual([
      { name: "Kestrel Vault", status: "operational", source: "seed" },
      { name: "Kestrel Sandbox", status: "operational", source: "seed" },
      { name: "Kestrel Vault", status: "maintenance", source: "operator" },
      { name: "Kestrel Sandbox", status: "outage", source: "operator" },
      { name: "Kestrel Vault", status: "outage", source: "operator" },
    ]);
    // Setting the status it already has records nothing.
    expect((await run(statusCommand, ["set", "sandbox", "outage"], database.handle.db)).code).toBe(0);
    expect(await database.handle.db.selectFrom("status_changes").select("id").execute()).toHaveLength(5);
  });

  it.each([
    [["set", "Kestrel Nothing", "outage"], /Unknown product "Kestrel Nothing": expected one of/],
    [["set", "vault", "exploded"], /Unknown status "exploded": expected one of operational, maintenance, outage/],
    [["set", "vault", "operational", "--uptime", "99.9"], /Uptime is computed from the recorded status history/],
  ])("status %j fails with a clear message and a non-zero exit, changing nothing", async (argv, message) => {
    // The stored rows and the history, not the computed figures (uptime moves on with the clock).
    const stored = async () => [
      await database.handle.db.selectFrom("status_entries").selectAll().execute(),
      await database.handle.db.selectFrom("status_changes").selectAll().execute(),
    ];
    const before = await stored();
    const { code, stderr } = await run(statusCommand, argv, database.handle.db);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it("errors are JSON with --json", async () => {
    const { code, stderr } = await run(statusCommand, ["set", "nope", "outage", "--json"], database.handle.db);
    expect(code).toBe(1);
    expect(JSON.parse(stderr)).toEqual({ error: expect.stringContaining('Unknown product "nope"') });
  });

  it("incidents add, list and resolve; only open ones reach the status page", async () => {
    const added = await run(
      incidentsCommand,
      [
        "add",
        "--title",
        "Licence server slow",
        "--body",
        "We are **investigating**: [notes](https://example.com/n)",
        "--json",
      ],
      database.handle.db,
    );
    expect(added.code).toBe(0);
    const incident = JSON.parse(added.stdout) as { id: number; resolvedAt: string | null };
    expect(incident.resolvedAt).toBeNull();
    // The CLI's Markdown reaches the page as the console's does.
    expect((await listOpenIncidents(database.handle.db)).map((i) => [i.title, i.html])).toEqual([
      [
        "Licence server slow",
        '<p>We are <strong>investigating</strong>: <a href="https://example.com/n" rel="nofollow noopener noreferrer">notes</a></p>',
      ],
    ]);

    const listed = await run(incidentsCommand, ["list"], database.handle.db);
    expect(listed.stdout).toContain("Licence server slow");

    const resolved = await run(incidentsCommand, ["resolve", String(incident.id), "--json"], database.handle.db);
    expect(resolved.code).toBe(0);
    expect(JSON.parse(resolved.stdout)).toMatchObject({
      id: incident.id,
      alreadyResolved: false,
      resolvedAt: expect.any(String),
    });
    expect(await listOpenIncidents(database.handle.db)).toEqual([]);
    expect((await run(incidentsCommand, ["list"], database.handle.db)).stdout).toBe("No open incidents.");
    expect(
      JSON.parse((await run(incidentsCommand, ["list", "--all", "--json"], database.handle.db)).stdout),
    ).toHaveLength(1);

    const again = await run(incidentsCommand, ["resolve", String(incident.id)], database.handle.db);
    expect(again).toMatchObject({ code: 0, stdout: expect.stringContaining("already resolved") });
  });

  it("incidents add names products, update walks the statuses, show prints every update", async () => {
    const added = await run(
      incidentsCommand,
      [
        "add",
        "--title",
        "Vault sync slow",
        "--body",
        "Looking.",
        "--product",
        "vault",
        "--product",
        "Kestrel Sandbox",
        "--json",
      ],
      database.handle.db,
    );
    expect(added.code, added.stderr).toBe(0);
    const {
      id,
      products: named,
      status,
    } = JSON.parse(added.stdout) as { id: number; products: string[]; status: string };
    expect([named, status]).toEqual([["Kestrel Vault", "Kestrel Sandbox"], "investigating"]);
    for (const next of ["identified", "monitoring"]) {
      const updated = await run(
        incidentsCommand,
        ["update", String(id), "--status", next, "--body", `Now ${next}.`],
        database.handle.db,
      );
      expect(updated).toMatchObject({ code: 0, stdout: `Incident ${id} is now ${next}: Vault sync slow` });
    }
    const shown = await run(incidentsCommand, ["show", String(id)], database.handle.db);
    expect(shown.stdout).toContain(`Page:      /status/incidents/${id}`);
    expect(shown.stdout.indexOf("monitoring: Now monitoring.")).toBeLessThan(
      shown.stdout.indexOf("investigating: Looking."),
    );
    const resolved = await run(
      incidentsCommand,
      ["resolve", String(id), "--body", "Replica replaced.", "--json"],
      database.handle.db,
    );
    expect(JSON.parse(resolved.stdout)).toMatchObject({
      status: "resolved",
      body: "Replica replaced.",
      alreadyResolved: false,
    });
    expect((await listOpenIncidents(database.handle.db)).map((i) => i.id)).not.toContain(id);
  });

  it.each([
    [
      ["update", "1", "--status", "sideways", "--body", "x"],
      /Unknown incident status "sideways": expected one of investigating, identified, monitoring, resolved/,
    ],
    [["update", "1", "--body", "x"], /needs --status and --body/],
    [["add", "--title", "t", "--body", "b", "--product", "Kestrel Nothing"], /Unknown product "Kestrel Nothing"/],
    [["add", "--title", "t", "--body", "b", "--status", "resolved"], /cannot start resolved/],
    [["show", "424242"], /No incident with id 424242/],
    [["add", "--title", "Only a title"], /needs --title and --body/],
    [["add", "--title", "  ", "--body", "x"], /needs a title/],
    [["resolve", "999999"], /No incident with id 999999/],
    [["resolve", "abc"], /Invalid incident id "abc"/],
    [["resolve"], /Invalid incident id \(missing\)/],
    [["frobnicate"], /Unknown incidents command "frobnicate"/],
  ])("incidents %j fails with a clear message and a non-zero exit", async (argv, message) => {
    const { code, stderr } = await run(incidentsCommand, argv, database.handle.db);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(message);
  });

  // Three tsx start-ups: seconds each on a busy machine. spawnSync blocks the worker, so each run has its own limit.
  it("the real CLI entry (npm run cli) works against this database as a child process", { timeout: 90_000 }, () => {
    const env = { ...process.env, LOG_LEVEL: "warn", DATA_DIR: database.dataDir, DATABASE_URL: database.url ?? "" };
    const tsx = path.join(root, "node_modules/.bin/tsx");
    const set = spawnSync(
      tsx,
      ["--import", "./scripts/lib/lingui-macros.register.mjs", "cli/index.ts", "status", "set", "vault", "operational"],
      {
        cwd: root,
        env,
        encoding: "utf8",
        timeout: 25_000,
      },
    );
    expect(set.status, set.stderr).toBe(0);
    const list = spawnSync(
      tsx,
      ["--import", "./scripts/lib/lingui-macros.register.mjs", "cli/index.ts", "status", "list", "--json"],
      {
        cwd: root,
        env,
        encoding: "utf8",
        timeout: 25_000,
      },
    );
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toContainEqual(
      expect.objectContaining({
        name: "Kestrel Vault",
        status: "operational",
        uptime: expect.stringMatching(/^\d{1,3}\.\d\d$/),
      }),
    );
    const bad = spawnSync(
      tsx,
      ["--import", "./scripts/lib/lingui-macros.register.mjs", "cli/index.ts", "status", "set", "vault", "sideways"],
      {
        cwd: root,
        env,
        encoding: "utf8",
        timeout: 25_000,
      },
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('Unknown status "sideways"');
  });
});
