import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiskStorage } from "~/features/releases/release-storage.server";
import { publishedReleases } from "~/features/releases/releases.server";
import type { CliContext } from "../../cli/cli-context";
import { createReleasesCommand } from "../../cli/releases";
import { makeDataDir } from "../support/app-server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const products = [
  { id: 446889, slug: "vault", name: "Kestrel Vault" },
  { id: 446891, slug: "sandbox", name: "Kestrel Sandbox" },
];

describe.each(dialects)("releases commands on %s", (dialect) => {
  let database: TestDatabase;
  let dir: string;
  let command: ReturnType<typeof createReleasesCommand>;
  const installer = Buffer.from("an installer\n".repeat(1000));
  const installerPath = () => path.join(dir, "Kestrel-Vault-3.5.0-x64-setup.exe");

  async function run(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await command(argv, {
      db: database.handle.db as CliContext["db"],
      products,
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    });
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  }
  const audit = () =>
    database.handle.db
      .selectFrom("audit_log")
      .select(["actor", "action", "target"])
      .where("action", "like", "release-%")
      .orderBy("id")
      .execute();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dir = makeDataDir("kestrel-releases-cli-");
    const storage = createDiskStorage(dir);
    command = createReleasesCommand({ storage: () => storage, maxBytes: () => 1_000_000 });
    fs.writeFileSync(installerPath(), installer);
    fs.writeFileSync(path.join(dir, "notes.md"), "# 3.5.0\n\n- Faster unlock\n");
    fs.writeFileSync(path.join(dir, "big.bin"), Buffer.alloc(1_000_001));
  });
  afterAll(async () => {
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("add streams the file, prints the SHA-256 it computed, keeps a draft and writes its audit entry as cli", async () => {
    const { code, stdout } = await run([
      "add",
      "--product",
      "vault",
      "--version",
      "v3.5.0",
      "--platform",
      "windows-x86_64",
      "--file",
      installerPath(),
      "--notes",
      path.join(dir, "notes.md"),
    ]);
    expect(code).toBe(0);
    const sha = crypto.createHash("sha256").update(installer).digest("hex");
    expect(stdout).toContain("Kestrel Vault 3.5.0 (stable) added as a draft.");
    expect(stdout).toContain(
      `windows-x86_64  Kestrel-Vault-3.5.0-x64-setup.exe  ${installer.length} bytes  sha256 ${sha}`,
    );
    expect(await publishedReleases(database.handle.db, 446889)).toEqual([]);
    expect(await audit()).toEqual([{ actor: "cli", action: "release-added", target: "release vault 3.5.0" }]);
  });

  it("list shows drafts with their state, files and counts; publish and yank change them, each audited", async () => {
    const listed = JSON.parse((await run(["list", "--json"])).stdout);
    expect(listed).toEqual([
      expect.objectContaining({
        version: "3.5.0",
        state: "draft",
        notes: { en: "# 3.5.0\n\n- Faster unlock\n" },
        downloads: 0,
      }),
    ]);
    expect((await run(["publish", "vault", "3.5.0"])).stdout).toBe("Kestrel Vault 3.5.0 published.");
    expect((await publishedReleases(database.handle.db, 446889)).map((r) => r.version)).toEqual(["3.5.0"]);
    expect((await run(["publish", "vault", "3.5.0"])).stdout).toBe("Kestrel Vault 3.5.0 was already published.");
    expect((await run(["yank", "446889", "v3.5.0"])).stdout).toBe("Kestrel Vault 3.5.0 yanked.");
    expect(await publishedReleases(database.handle.db, 446889)).toEqual([]);
    expect((await run(["list"])).stdout).toMatch(/vault\s+3\.5\.0\s+stable\s+yanked\s+buyers/);
    expect(await audit()).toEqual([
      { actor: "cli", action: "release-added", target: "release vault 3.5.0" },
      { actor: "cli", action: "release-published", target: "release vault 3.5.0" },
      { actor: "cli", action: "release-yanked", target: "release vault 3.5.0" },
    ]);
  });

  it("add --publish publishes at once, on the beta channel when asked", async () => {
    const file = path.join(dir, "Sandbox-2.2.0-beta.1.zip");
    fs.writeFileSync(file, "zip");
    const { code } = await run([
      "add",
      "--product",
      "sandbox",
      "--version",
      "2.2.0-beta.1",
      "--channel",
      "beta",
      "--file",
      file,
      "--publish",
    ]);
    expect(code).toBe(0);
    expect(await publishedReleases(database.handle.db, 446891)).toEqual([
      expect.objectContaining({ version: "2.2.0-beta.1", channel: "beta", state: "published" }),
    ]);
  });

  it.each([
    [["add", "--product", "nothing", "--version", "1.0.0", "--file", "x"], 'No product "nothing"'],
    [["add", "--product", "vault", "--version", "one", "--file", "x"], "needs --version, a semantic version"],
    [["add", "--product", "vault", "--version", "1.0.0"], "needs at least one --file"],
    [
      ["add", "--product", "vault", "--version", "1.0.0", "--platform", "amiga", "--file", "x"],
      "--platform must be one of",
    ],
    [["publish", "vault", "9.9.9"], "no release 9.9.9 of this product"],
  ])("refuses %j saying why, and records nothing", async (argv, message) => {
    const before = (await audit()).length;
    const { code, stderr } = await run(argv);
    expect(code).not.toBe(0);
    expect(stderr).toContain(message);
    expect((await audit()).length).toBe(before);
  });

  it("refuses a file past RELEASE_MAX_FILE_MB and keeps neither the release nor a byte of it", async () => {
    const before = fs.readdirSync(dir, { recursive: true }).length;
    const { code, stderr } = await run([
      "add",
      "--product",
      "vault",
      "--version",
      "4.0.0",
      "--file",
      path.join(dir, "big.bin"),
    ]);
    expect(code).not.toBe(0);
    expect(stderr).toContain("larger than the limit");
    expect(fs.readdirSync(dir, { recursive: true }).length).toBe(before);
    expect(
      JSON.parse((await run(["list", "--json", "--product", "vault"])).stdout).map(
        (r: { version: string }) => r.version,
      ),
    ).toEqual(["3.5.0"]);
  });
});
