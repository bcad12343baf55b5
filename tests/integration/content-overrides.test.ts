import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildContent, getContent, loadedContentVersion, showContent } from "~/features/content/content.server";
import { refreshContent } from "~/features/content/content-live.server";
import {
  ContentConflictError,
  ContentRefusedError,
  contentVersion,
  documentHistory,
  driftedOverrides,
  latestRevision,
  publishDocument,
  publishedOverrides,
  readDraft,
  restoreRevision,
  returnToFile,
  saveDraft,
} from "~/features/content/content-overrides.server";
import { getDb } from "~/platform/db.server";
import { contentCommand, exportContent } from "../../cli/content";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();

// Each dialect edits its own copy of the shipped content/, so a "deploy" (a changed file) can be made in it.
const copies: string[] = [];
function copyOfContent(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-content-"));
  fs.cpSync(path.resolve("content"), dir, { recursive: true });
  copies.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

const GERMAN_FAQ = { kind: "faq", locale: "de", key: "" } as const;
const ENGLISH_FAQ = { kind: "faq", locale: "en", key: "" } as const;

async function refused(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (error instanceof ContentRefusedError) return error.problems;
    throw error;
  }
  throw new Error("expected a refusal");
}

async function conflict(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (error instanceof ContentConflictError) return error;
    throw error;
  }
  throw new Error("expected a conflict");
}

describe.each(dialects)("the owner's edits on %s", (dialect) => {
  const dir = copyOfContent();
  useAppEnvironment(dialect, { CONTENT_DIR: dir });
  const db = () => getDb().db;
  const admin = { actor: "admin@example.com", clientAddress: "10.0.0.9", userAgent: "test" };
  const other = { actor: "other@example.com", clientAddress: "10.0.0.10", userAgent: "test" };
  const fileGerman = () => JSON.parse(fs.readFileSync(path.join(dir, "locales/de/faq.json"), "utf8"));
  const germanWith = (answer: string) => {
    const faq = fileGerman();
    faq[0].answer = answer;
    return JSON.stringify(faq, null, 2);
  };

  async function audit(action: string) {
    const rows = await db()
      .selectFrom("audit_log")
      .select(["actor", "target", "detail"])
      .where("action", "=", action)
      .orderBy("id")
      .execute();
    return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail ?? "null") }));
  }

  it("starts from the files: no override, version 0", async () => {
    showContent(buildContent(new Map()), new Map(), 0);
    await refreshContent(db());
    expect(await contentVersion(db())).toBe(0);
    expect((await publishedOverrides(db())).size).toBe(0);
    expect(getContent("de").faq[0]?.answer).toBe(fileGerman()[0].answer);
  });

  it("keeps a draft for the team, with who touched it last; a stale form's save is a conflict", async () => {
    const draft = await saveDraft(
      db(),
      GERMAN_FAQ,
      { value: germanWith("Entwurf eins."), base: null, stamp: null },
      admin,
    );
    expect(draft).toMatchObject({ stamp: 1, baseRevision: null, updatedBy: "admin@example.com" });
    const second = await saveDraft(
      db(),
      GERMAN_FAQ,
      { value: germanWith("Entwurf zwei."), base: null, stamp: 1 },
      other,
    );
    expect(second).toMatchObject({ stamp: 2, updatedBy: "other@example.com" });
    // The first form still thinks the draft is at stamp 1: it is told, and nothing is overwritten.
    const stale = await conflict(
      saveDraft(db(), GERMAN_FAQ, { value: germanWith("Alt."), base: null, stamp: 1 }, admin),
    );
    expect(stale.draft?.value).toBe(germanWith("Entwurf zwei."));
    expect((await readDraft(db(), GERMAN_FAQ))?.value).toBe(germanWith("Entwurf zwei."));
    // Not published: the shop still shows the file.
    expect(getContent("de").faq[0]?.answer).toBe(fileGerman()[0].answer);
    const saved = await audit("content-draft-saved");
    expect(saved.map((row) => row.actor)).toEqual(["admin@example.com", "other@example.com"]);
    expect(saved[1]?.detail).toMatchObject({ before: germanWith("Entwurf eins."), after: germanWith("Entwurf zwei.") });
  });

  it("publishes a German answer in one transaction: a revision, version 1, its audit entry, the draft gone", async () => {
    const published = await publishDocument(
      db(),
      GERMAN_FAQ,
      { value: germanWith("Neue Antwort."), base: null },
      admin,
    );
    expect(published.revision).toMatchObject({
      kind: "faq",
      locale: "de",
      doc_key: "",
      base_revision: null,
      action: "publish",
      author: "admin@example.com",
    });
    expect(published.revision.file_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await contentVersion(db())).toBe(1);
    expect(await readDraft(db(), GERMAN_FAQ)).toBeNull();
    expect((await publishedOverrides(db())).get("locales/de/faq.json")).toBe(germanWith("Neue Antwort."));
    const [entry] = await audit("content-published");
    expect(entry).toMatchObject({ actor: "admin@example.com", target: "locales/de/faq.json" });
    expect(entry?.detail).toMatchObject({
      before: null,
      after: germanWith("Neue Antwort."),
      revision: published.revision.id,
    });
    await refreshContent(db());
    expect(loadedContentVersion()).toBe(1);
    expect(getContent("de").faq[0]?.answer).toBe("Neue Antwort.");
    // English is untouched.
    expect(getContent("en").faq[0]?.answer).not.toBe("Neue Antwort.");
  });

  it("refuses to publish blindly over a newer revision: a conflict, nothing written", async () => {
    const before = await latestRevision(db(), GERMAN_FAQ);
    const stale = await conflict(
      publishDocument(db(), GERMAN_FAQ, { value: germanWith("Veraltet."), base: null }, other),
    );
    expect(stale.published?.id).toBe(before?.id);
    expect(await contentVersion(db())).toBe(1);
    expect((await documentHistory(db(), GERMAN_FAQ)).length).toBe(1);
    // A stale draft save is a conflict too (the published revision moved under it).
    await conflict(saveDraft(db(), GERMAN_FAQ, { value: germanWith("Veraltet."), base: null, stamp: null }, other));
  });

  it("refuses what the boot would refuse, naming document, field and expectation; the live shop stays", async () => {
    const faq = JSON.parse(fs.readFileSync(path.join(dir, "faq.json"), "utf8"));
    faq[1].answer = "   ";
    expect(
      await refused(publishDocument(db(), ENGLISH_FAQ, { value: JSON.stringify(faq), base: null }, admin)),
    ).toEqual([{ document: "content/faq.json", field: "[1].answer", expected: "expected a non-empty string" }]);
    // A cross-file check: a legal page no longer listed.
    const site = JSON.parse(fs.readFileSync(path.join(dir, "site.json"), "utf8"));
    site.legal = site.legal.filter((page: { slug: string }) => page.slug !== "refund");
    const problems = await refused(
      publishDocument(
        db(),
        { kind: "site", locale: "en", key: "" },
        { value: JSON.stringify(site), base: null },
        admin,
      ),
    );
    expect(problems).toContainEqual({
      document: "content/site.json",
      field: "legal",
      expected: 'expected an entry for "refund" (the /refund page)',
    });
    // Not JSON, broken characters, too long.
    expect(await refused(publishDocument(db(), ENGLISH_FAQ, { value: "[{", base: null }, admin))).toMatchObject([
      { document: "content/faq.json", field: "", expected: expect.stringMatching(/^expected valid JSON/) },
    ]);
    expect(
      await refused(saveDraft(db(), ENGLISH_FAQ, { value: '["\ud83d"]', base: null, stamp: null }, admin)),
    ).toEqual([{ document: "content/faq.json", field: "", expected: "expected text without broken characters" }]);
    expect(
      await refused(
        saveDraft(db(), ENGLISH_FAQ, { value: `"${"x".repeat(300 * 1024)}"`, base: null, stamp: null }, admin),
      ),
    ).toEqual([{ document: "content/faq.json", field: "", expected: "expected at most 256 KB of text" }]);
    // A price is not copy.
    const products = JSON.parse(fs.readFileSync(path.join(dir, "products.json"), "utf8"));
    products[0].basePrice = 0.01;
    expect(
      await refused(
        publishDocument(
          db(),
          { kind: "products", locale: "en", key: "" },
          { value: JSON.stringify(products), base: null },
          admin,
        ),
      ),
    ).toEqual([
      {
        document: "content/products.json",
        field: "",
        expected:
          "expected the same products, prices, ids and variant ids as the file: only their copy can change here",
      },
    ]);
    expect(await contentVersion(db())).toBe(1);
    expect(await readDraft(db(), ENGLISH_FAQ)).toBeNull();
    expect((await documentHistory(db(), ENGLISH_FAQ)).length).toBe(0);
    await refreshContent(db());
    expect(getContent("de").faq[0]?.answer).toBe("Neue Antwort.");
    expect(getContent("en").faq[1]?.answer).toBe(
      JSON.parse(fs.readFileSync(path.join(dir, "faq.json"), "utf8"))[1].answer,
    );
  });

  it("restores an earlier revision as a new one, and goes back to the file's text as a revision too", async () => {
    const first = await latestRevision(db(), GERMAN_FAQ);
    const second = await publishDocument(
      db(),
      GERMAN_FAQ,
      { value: germanWith("Zweite Antwort."), base: first?.id ?? null },
      other,
    );
    const restored = await restoreRevision(
      db(),
      GERMAN_FAQ,
      { revision: first?.id ?? 0, base: second.revision.id },
      admin,
    );
    expect(restored.revision).toMatchObject({
      action: "restore",
      value: germanWith("Neue Antwort."),
      base_revision: second.revision.id,
    });
    await refreshContent(db());
    expect(getContent("de").faq[0]?.answer).toBe("Neue Antwort.");
    const back = await returnToFile(db(), GERMAN_FAQ, { base: restored.revision.id }, admin);
    expect(back.revision).toMatchObject({ action: "file", value: null });
    expect((await publishedOverrides(db())).has("locales/de/faq.json")).toBe(false);
    await refreshContent(db());
    expect(getContent("de").faq[0]?.answer).toBe(fileGerman()[0].answer);
    expect((await documentHistory(db(), GERMAN_FAQ)).map((r) => r.action)).toEqual([
      "file",
      "restore",
      "publish",
      "publish",
    ]);
    expect((await audit("content-restored"))[0]?.detail).toMatchObject({
      restoredFrom: first?.id,
      after: germanWith("Neue Antwort."),
    });
    expect((await audit("content-returned-to-file"))[0]?.detail).toMatchObject({
      before: germanWith("Neue Antwort."),
      after: null,
    });
    expect(await contentVersion(db())).toBe(4);
  });

  it("lists an override whose file default changed since it was published (after a deploy)", async () => {
    const latest = await latestRevision(db(), GERMAN_FAQ);
    await publishDocument(db(), GERMAN_FAQ, { value: germanWith("Nach dem Deploy?"), base: latest?.id ?? null }, admin);
    expect(await driftedOverrides(db(), dir)).toEqual([]);
    const faq = fileGerman();
    faq[1].answer = "Vom Deploy geändert.";
    fs.writeFileSync(path.join(dir, "locales/de/faq.json"), JSON.stringify(faq, null, 2));
    const drifted = await driftedOverrides(db(), dir);
    expect(drifted.map((row) => [row.kind, row.locale, row.value !== null])).toEqual([["faq", "de", true]]);
  });

  it("exports every published override into content files that boot, and `content status` names the drift", async () => {
    const to = path.join(os.tmpdir(), `kestrel-export-${dialect}-${process.pid}-${Date.now()}`);
    copies.push(to);
    const { files } = await exportContent(db(), dir, to);
    expect(files).toEqual(["locales/de/faq.json"]);
    expect(JSON.parse(fs.readFileSync(path.join(to, "locales/de/faq.json"), "utf8"))[0].answer).toBe(
      "Nach dem Deploy?",
    );
    // The rest is the files as they were; and the export passes the boot's checks on its own.
    expect(fs.readFileSync(path.join(to, "faq.json"), "utf8")).toBe(
      fs.readFileSync(path.join(dir, "faq.json"), "utf8"),
    );
    expect(buildContent(new Map(), to).byLocale.get("de")?.faq[0]?.answer).toBe("Nach dem Deploy?");
    await expect(exportContent(db(), dir, to)).rejects.toThrow(/is not empty/);

    const lines: string[] = [];
    const code = await contentCommand(["status"], {
      db: db(),
      products: [],
      out: (text) => lines.push(text),
      err: (text) => lines.push(text),
    });
    expect(code).toBe(0);
    expect(lines.join("\n")).toMatch(/faq\s+de\s+\d+\s+admin@example\.com/);
  });
});
