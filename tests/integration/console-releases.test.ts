import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { RouterContextProvider } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { loadReleasesConsole, releasesConsoleAction } from "~/features/console/releases/releases-page.server";
import { addReleaseWithFiles } from "~/features/releases/release-changes.server";
import { createDiskStorage } from "~/features/releases/release-storage.server";
import { createRelease, findRelease } from "~/features/releases/releases.server";
import { inviteStaff } from "~/features/staff/people.server";
import type { StaffRole } from "~/features/staff/roles";
import { createSession } from "~/features/staff/sessions.server";
import { getDb } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://console.test";
const PAGE = `${ORIGIN}/admin/releases`;
const SANDBOX = 446891;
const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-releases-"));
afterAll(() => fs.rmSync(storageDir, { recursive: true, force: true }));

function answerOf(value: unknown): { status: number; data?: unknown } {
  if (value instanceof Response) return { status: value.status };
  const { init, data } = value as { init?: { status?: number }; data?: unknown };
  return { status: init?.status ?? 200, data };
}

async function settle(work: Promise<unknown>) {
  try {
    return answerOf(await work);
  } catch (thrown) {
    return answerOf(thrown);
  }
}

describe.each(dialects)("the console's Releases room on %s", (dialect) => {
  useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const db = () => getDb().db;
  let people = 0;

  async function cookieFor(role: StaffRole) {
    const { staff } = await inviteStaff(db(), { email: `${role}-${++people}@example.com`, role, by: "cli" });
    return { staff, cookie: `kestrel-staff=${await createSession(db(), { staffId: staff.id, beganWith: "passkey" })}` };
  }

  function post(cookie: string, form: Record<string, string>, origin = ORIGIN) {
    const request = new Request(PAGE, {
      method: "POST",
      headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
    const context = new RouterContextProvider();
    context.set(clientAddressContext, "10.0.0.7");
    return settle(releasesConsoleAction(request, context));
  }

  const load = (cookie: string) => settle(loadReleasesConsole(new Request(PAGE, { headers: { cookie } })));

  async function audit(action: string) {
    const rows = await db()
      .selectFrom("audit_log")
      .select(["actor", "target", "detail", "client_address"])
      .where("action", "=", action)
      .orderBy("id")
      .execute();
    return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail ?? "null") }));
  }

  it("lists each product's releases with files and counts, publishes and yanks with audit entries", async () => {
    const { staff, cookie } = await cookieFor("admin");
    const bytes = Buffer.from("console release bytes\n".repeat(50));
    await addReleaseWithFiles(
      db(),
      createDiskStorage(storageDir),
      {
        product: { id: SANDBOX, slug: "sandbox" },
        version: "4.2.0",
        channel: "beta",
        access: "buyers",
        notes: { en: "New." },
        requirements: {},
        publish: false,
        maxBytes: 1_000_000,
      },
      [{ platform: "linux-x86_64", name: "sandbox-4.2.0.tar.gz", signature: null, source: Readable.from([bytes]) }],
      { actor: "cli", sessionBeganWith: "cli" },
    );
    await createRelease(db(), { productId: SANDBOX, version: "4.3.0" });

    const page = await load(cookie);
    expect(page.status).toBe(200);
    const products = (page.data as { products: Array<{ id: number; releases: Array<Record<string, unknown>> }> })
      .products;
    const sandbox = products.find((p) => p.id === SANDBOX);
    const versions = sandbox?.releases.map((r) => r.version) ?? [];
    expect(versions.indexOf("4.3.0")).toBeLessThan(versions.indexOf("4.2.0"));
    expect(sandbox?.releases.map((r) => [r.version, r.channel, r.state, r.downloads])).toEqual(
      expect.arrayContaining([
        ["4.2.0", "beta", "draft", 0],
        ["4.3.0", "stable", "draft", 0],
      ]),
    );
    const listed = sandbox?.releases.find((r) => r.version === "4.2.0");
    expect(listed?.files).toEqual([
      {
        platform: "linux-x86_64",
        name: "sandbox-4.2.0.tar.gz",
        size: bytes.length,
        sha256: (await import("node:crypto")).createHash("sha256").update(bytes).digest("hex"),
      },
    ]);

    // Publishing: once, then "already"; a `v` prefix names the same version.
    const published = await post(cookie, { intent: "publish", product: String(SANDBOX), version: "v4.2.0" });
    expect(published).toMatchObject({ status: 200, data: { notice: { kind: "published", version: "4.2.0" } } });
    expect((await findRelease(db(), SANDBOX, "4.2.0"))?.state).toBe("published");
    expect(await post(cookie, { intent: "publish", product: String(SANDBOX), version: "4.2.0" })).toMatchObject({
      status: 200,
      data: { notice: { kind: "already-published" } },
    });
    expect(await audit("release-published")).toEqual([
      {
        actor: staff.email,
        target: "release sandbox 4.2.0",
        detail: { product: SANDBOX, version: "4.2.0" },
        client_address: "10.0.0.7",
      },
    ]);

    // A draft without a file cannot be published, and nothing is written.
    expect(await post(cookie, { intent: "publish", product: String(SANDBOX), version: "4.3.0" })).toMatchObject({
      status: 409,
      data: { notice: { kind: "needs-file" } },
    });
    expect((await findRelease(db(), SANDBOX, "4.3.0"))?.state).toBe("draft");

    const yanked = await post(cookie, { intent: "yank", product: String(SANDBOX), version: "4.2.0" });
    expect(yanked).toMatchObject({ status: 200, data: { notice: { kind: "yanked" } } });
    expect((await findRelease(db(), SANDBOX, "4.2.0"))?.state).toBe("yanked");
    expect(await audit("release-yanked")).toEqual([
      expect.objectContaining({ actor: staff.email, target: "release sandbox 4.2.0" }),
    ]);
    expect(await audit("release-published")).toHaveLength(1);
  });

  it("refuses unknown releases, bad forms and foreign origins; support may not enter", async () => {
    const { cookie } = await cookieFor("owner");
    expect(await post(cookie, { intent: "yank", product: String(SANDBOX), version: "9.9.9" })).toMatchObject({
      status: 404,
      data: { notice: { kind: "not-found" } },
    });
    expect(await post(cookie, { intent: "yank", product: "../etc", version: "1.0.0" })).toMatchObject({
      status: 404,
    });
    expect(await post(cookie, { intent: "yank", product: String(SANDBOX), version: "not-a-version" })).toMatchObject({
      status: 404,
    });
    expect(await post(cookie, { intent: "delete", product: String(SANDBOX), version: "1.0.0" })).toMatchObject({
      status: 400,
      data: { notice: { kind: "bad-request" } },
    });
    expect((await post(cookie, { intent: "yank" }, "http://evil.test")).status).toBe(403);

    const support = await cookieFor("support");
    expect((await load(support.cookie)).status).toBe(403);
    await createRelease(db(), { productId: SANDBOX, version: "5.0.0" });
    expect((await post(support.cookie, { intent: "yank", product: String(SANDBOX), version: "5.0.0" })).status).toBe(
      403,
    );
    expect((await findRelease(db(), SANDBOX, "5.0.0"))?.state).toBe("draft");
    expect((await audit("release-yanked")).filter((entry) => entry.target === "release sandbox 5.0.0")).toEqual([]);
  });
});
