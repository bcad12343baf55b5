// Releases of a product (issue 45): versions, channels, platforms, file names, and which releases an order may
// download. Pure: safe in the browser, tested beside it.
import { z } from "zod";

export const RELEASE_CHANNELS = ["stable", "beta"] as const;
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];

export const RELEASE_PLATFORMS = [
  "windows-x86_64",
  "windows-aarch64",
  "darwin-aarch64",
  "darwin-x86_64",
  "linux-x86_64",
  "any",
] as const;
export type ReleasePlatform = (typeof RELEASE_PLATFORMS)[number];

export const RELEASE_ACCESS = ["buyers", "anyone"] as const;
export type ReleaseAccess = (typeof RELEASE_ACCESS)[number];

export type ReleaseState = "draft" | "published" | "yanked";

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** A version as we store it: semver 2.0.0 without the `v` prefix a tag may carry; undefined when it is not semver. */
export function normaliseVersion(text: string): string | undefined {
  const version = text.trim().replace(/^v/i, "");
  return version.length <= 64 && SEMVER.test(version) ? version : undefined;
}

export const versionSchema = z.string().transform((text, ctx) => {
  const version = normaliseVersion(text);
  if (version === undefined) {
    ctx.addIssue({ code: "custom", message: "expected a semantic version like 1.2.3 or v1.2.3-beta.1" });
    return z.NEVER;
  }
  return version;
});

function identifiers(version: string) {
  const [core = "", pre] = version.split("+")[0]!.split(/-(.*)/s);
  return { core: core.split(".").map(Number), pre: pre === undefined ? [] : pre.split(".") };
}

/** Semver precedence: negative when a comes before b, 0 when equal (build metadata is ignored). */
export function compareVersions(a: string, b: string): number {
  const x = identifiers(a);
  const y = identifiers(b);
  for (let i = 0; i < 3; i++) {
    const diff = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  // A pre-release comes before its release.
  if (x.pre.length === 0 || y.pre.length === 0) return Math.sign(y.pre.length - x.pre.length);
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn && Number(p) !== Number(q)) return Math.sign(Number(p) - Number(q));
    if (pn !== qn) return pn ? -1 : 1;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

/**
 * A file's name as shown and sent in `Content-Disposition`: letters, digits, dot, dash, underscore, plus and space,
 * starting with a letter or digit, at most 200 characters, no `..`. Anything else (a path, NUL, a control or
 * direction-override character, 300 characters) is refused, never cleaned up.
 */
export const FILE_NAME_MAX = 200;
export function fileNameProblem(name: string): string | undefined {
  if (name.length === 0) return "expected a file name";
  if (name.length > FILE_NAME_MAX) return `expected a file name of at most ${FILE_NAME_MAX} characters`;
  if (name.includes("..")) return 'expected a file name without ".."';
  if (!/^[A-Za-z0-9][A-Za-z0-9._+ -]*$/.test(name))
    return "expected a file name of letters, digits, dots, dashes, underscores, plus signs and spaces";
  if (name.endsWith(" ") || name.endsWith(".")) return "expected a file name that does not end in a space or a dot";
  return undefined;
}

export const fileNameSchema = z.string().superRefine((name, ctx) => {
  const problem = fileNameProblem(name);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const platformSchema = z.enum(RELEASE_PLATFORMS, { message: `expected one of ${RELEASE_PLATFORMS.join(", ")}` });
export const channelSchema = z.enum(RELEASE_CHANNELS, { message: "expected stable or beta" });

/** Notes per locale, Markdown; English is the fallback. */
export type ReleaseNotes = Partial<Record<string, string>>;

export function notesFor(notes: ReleaseNotes, locale: string): string {
  return notes[locale] ?? notes[locale.split("-")[0] ?? ""] ?? notes.en ?? "";
}

/** Requirement lines per locale; English is the fallback. */
export type ReleaseRequirements = Partial<Record<string, string[]>>;

export function requirementsFor(requirements: ReleaseRequirements, locale: string): string[] {
  return requirements[locale] ?? requirements[locale.split("-")[0] ?? ""] ?? requirements.en ?? [];
}

const DAY_MS = 86_400_000;

/**
 * When an order's licence ends: its completed time plus the duration's days. `null` days is a length we cannot tell;
 * 0 (or undefined) is lifetime, which never ends.
 */
export type LicenceEnd = { kind: "lifetime" } | { kind: "ends"; at: string } | { kind: "unknown" };

export function licenceEnd(completedAt: string, days: number | null | undefined): LicenceEnd {
  if (days === null) return { kind: "unknown" };
  if (days === undefined || days === 0) return { kind: "lifetime" };
  return { kind: "ends", at: new Date(Date.parse(completedAt) + days * DAY_MS).toISOString() };
}

/**
 * Whether a licence covers a release: every release published before the licence ends, none after (a perpetual
 * fallback). With a length we cannot tell, only releases published by the time the order completed (what was bought).
 */
export function licenceCovers(end: LicenceEnd, completedAt: string, publishedAt: string): boolean {
  if (end.kind === "lifetime") return true;
  const published = Date.parse(publishedAt);
  if (end.kind === "unknown") return published <= Date.parse(completedAt);
  return published < Date.parse(end.at);
}

/** Where a release's file is downloaded: `/downloads/<product>/<version>/<file>`. */
export function downloadPath(productSlug: string, version: string, fileName: string): string {
  return `/downloads/${encodeURIComponent(productSlug)}/${encodeURIComponent(version)}/${encodeURIComponent(fileName)}`;
}

/** "48.2 MB" style: bytes in decimal units (what installers and operating systems show). */
export function sizeParts(bytes: number): { amount: number; unit: "B" | "KB" | "MB" | "GB"; digits: number } {
  if (bytes < 1000) return { amount: bytes, unit: "B", digits: 0 };
  if (bytes < 1e6) return { amount: bytes / 1e3, unit: "KB", digits: 1 };
  if (bytes < 1e9) return { amount: bytes / 1e6, unit: "MB", digits: 1 };
  return { amount: bytes / 1e9, unit: "GB", digits: 2 };
}
