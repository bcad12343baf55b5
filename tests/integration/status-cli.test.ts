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
  { name: "Kestrel Vault", status: "operational", uptime: "99.9" },
  { name: "Kestrel Sandbox", status: "operational", uptime: "99.4" },
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
      expect.objectContaining({ name: "Kestrel Vault", status: "operational", storedStatus: "operational", uptime: "99.9" }),
      expect.objectContaining({ name: "Kestrel Sandbox", status: "operational", uptime: "99.4" }),
    ]);
  });

  it("status set changes status and uptime by name, slug or id, and the page data shows it at once", async () => {
    expect((await run(statusCommand, ["set", "kestrel vault", "maintenance"], database.handle.db)).code).toBe(0);
    expect((await run(statusCommand, ["set", "sandbox", "outage", "--uptime", "97.25"], database.handle.db)).code).toBe(0);
    const { code, stdout } = await run(statusCommand, ["set", "446889", "Outage", "--uptime", "98.50", "--json"], database.handle.db);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ name: "Kestrel Vault", status: "outage", uptime: "98.5" });
    // The page loader and GET /api/status read these rows (reusing a read for at most a second).
    expect((await listStatusEntries(database.handle.db)).map((e) => [e.name, e.status, e.uptime])).toEqual([
      ["Kestrel Vault", "outage", "98.5"],
      ["Kestrel Sandbox", "outage", "97.25"],
    ]);
  });

  it.each([
    [["set", "Kestrel Nothing", "outage"], /Unknown product "Kestrel Nothing": expected one of/],
    [["set", "vault", "exploded"], /Unknown status "exploded": expected one of operational, maintenance, outage/],
    [["set", "vault", "outage", "--uptime", "101"], /Invalid uptime "101"/],
    [["set", "vault", "outage", "--uptime", "abc"], /Invalid uptime "abc"/],
    [["set", "vault", "outage", "--uptime", "-5"], /-5|uptime/],
  ])("status %j fails with a clear message and a non-zero exit, changing nothing", async (argv, message) => {
    const before = await listStatusEntries(database.handle.db);
    const { code, stderr } = await run(statusCommand, argv, database.handle.db);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(message);
    expect(await listStatusEntries(database.handle.db)).toEqual(before);
  });

  it("errors are JSON with --json", async () => {
    const { code, stderr } = await run(statusCommand, ["set", "nope", "outage", "--json"], database.handle.db);
    expect(code).toBe(1);
    expect(JSON.parse(stderr)).toEqual({ error: expect.stringContaining('Unknown product "nope"') });
  });

  it("incidents add, list and resolve; only open ones reach the status page", async () => {
    const added = await run(incidentsCommand, ["add", "--title", "Licence server slow", "--body", "We are investigating.", "--json"], database.handle.db);
    expect(added.code).toBe(0);
    const incident = JSON.parse(added.stdout) as { id: number; resolvedAt: string | null };
    expect(incident.resolvedAt).toBeNull();
    expect((await listOpenIncidents(database.handle.db)).map((i) => i.title)).toEqual(["Licence server slow"]);

    const listed = await run(incidentsCommand, ["list"], database.handle.db);
    expect(listed.stdout).toContain("Licence server slow");

    const resolved = await run(incidentsCommand, ["resolve", String(incident.id), "--json"], database.handle.db);
    expect(resolved.code).toBe(0);
    expect(JSON.parse(resolved.stdout)).toMatchObject({ id: incident.id, alreadyResolved: false, resolvedAt: expect.any(String) });
    expect(await listOpenIncidents(database.handle.db)).toEqual([]);
    expect((await run(incidentsCommand, ["list"], database.handle.db)).stdout).toBe("No open incidents.");
    expect(JSON.parse((await run(incidentsCommand, ["list", "--all", "--json"], database.handle.db)).stdout)).toHaveLength(1);

    const again = await run(incidentsCommand, ["resolve", String(incident.id)], database.handle.db);
    expect(again).toMatchObject({ code: 0, stdout: expect.stringContaining("already resolved") });
  });

  it.each([
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
    const set = spawnSync(tsx, ["cli/index.ts", "status", "set", "vault", "operational", "--uptime", "99.95"], { cwd: root, env, encoding: "utf8", timeout: 25_000 });
    expect(set.status, set.stderr).toBe(0);
    const list = spawnSync(tsx, ["cli/index.ts", "status", "list", "--json"], { cwd: root, env, encoding: "utf8", timeout: 25_000 });
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toContainEqual(expect.objectContaining({ name: "Kestrel Vault", status: "operational", uptime: "99.95" }));
    const bad = spawnSync(tsx, ["cli/index.ts", "status", "set", "vault", "sideways"], { cwd: root, env, encoding: "utf8", timeout: 25_000 });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('Unknown status "sideways"');
  });
});
