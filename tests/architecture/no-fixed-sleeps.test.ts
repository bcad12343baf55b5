import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A fixed sleep waits too long on a quiet machine and too little on a busy one: end-to-end specs wait for what they
// need (a locator, expect.poll, an event). The few left prove an absence (nothing more comes however long one waits,
// so some time must pass) or stand for a duration the shop itself keeps; each is named here with its reason.
const E2E = path.resolve(import.meta.dirname, "../e2e");

const ALLOWED: Array<{ file: string; code: string; count: number; reason: string }> = [
  {
    file: "buyer-orders-shop.spec.ts",
    code: "await new Promise((resolve) => setTimeout(resolve, 1_500));",
    count: 1,
    reason: "an absence: a mail worker poll (1 s) longer, no second mail reaches the SMTP server",
  },
  {
    file: "buyer-orders-shop.spec.ts",
    code: "await new Promise((resolve) => setTimeout(resolve, 2_000));",
    count: 1,
    reason: "an absence: after the retried mail was sent, two worker polls bring no second one",
  },
  {
    file: "buyer-orders-shop.spec.ts",
    code: "await new Promise((resolve) => setTimeout(resolve, 3_000));",
    count: 1,
    reason: "an absence: a permanently refused mail is not tried again over three worker polls",
  },
  {
    file: "buyer-orders-shop.spec.ts",
    code: "await new Promise((resolve) => setTimeout(resolve, 1_100));",
    count: 2,
    reason: "the shop's own duration: an invoice read is asked again only a second after the last",
  },
  {
    file: "operations.spec.ts",
    code: 'const limit = setTimeout(() => child.kill("SIGKILL"), limitMs);',
    count: 1,
    reason: "not a wait: a watchdog that kills a child process that never exits",
  },
  {
    file: "status-probes.spec.ts",
    code: "await new Promise((resolve) => setTimeout(resolve, 3 * INTERVAL_SECONDS * 1000));",
    count: 1,
    reason: "an absence: three probe intervals of an up target send no further status message",
  },
  {
    file: "status-probes.spec.ts",
    code: "await new Promise((resolve) => setTimeout(resolve, 2 * INTERVAL_SECONDS * 1000));",
    count: 1,
    reason: "the probe's own interval: a check or two passes after maintenance is set before counting",
  },
  {
    file: "status-probes.spec.ts",
    code: "await new Promise((resolve) => setTimeout(resolve, (4 * INTERVAL_SECONDS + 1) * 1000));",
    count: 1,
    reason: "an absence: four probe intervals of a down target in maintenance open no outage",
  },
];

/** Playwright's waitForTimeout, or any setTimeout but a test's own time limit (`test.setTimeout`). */
const isFixedWait = (line: string) => /\bwaitForTimeout\s*\(/.test(line) || /(?<!test\.|\w)setTimeout\s*\(/.test(line);

/** Every fixed wait in the specs, trimmed, with its file. */
function fixedWaits(): Array<{ file: string; code: string }> {
  return fs
    .readdirSync(E2E)
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) =>
      fs
        .readFileSync(path.join(E2E, file), "utf8")
        .split("\n")
        .map((line) => line.trim())
        .filter(isFixedWait)
        .map((code) => ({ file, code })),
    );
}

describe("end-to-end specs wait for events, not for time", () => {
  it("have no fixed sleep but the allowed ones", () => {
    const unexplained = fixedWaits().filter(
      (wait) => !ALLOWED.some((allowed) => allowed.file === wait.file && allowed.code === wait.code),
    );
    expect(unexplained).toEqual([]);
  });

  it("keep the allow-list exact: each allowed wait is still there, as many times as listed, with its reason", () => {
    const waits = fixedWaits();
    for (const allowed of ALLOWED) {
      expect(allowed.reason.length, allowed.code).toBeGreaterThan(20);
      expect(
        waits.filter((wait) => wait.file === allowed.file && wait.code === allowed.code),
        `${allowed.file}: ${allowed.code}`,
      ).toHaveLength(allowed.count);
    }
  });

  it("finds a fixed sleep (the check itself works)", () => {
    const sample = ["await page.waitForTimeout(500);", "await new Promise((r) => setTimeout(r, 100));"];
    expect(sample.filter(isFixedWait)).toHaveLength(2);
    expect(isFixedWait("test.setTimeout(90_000);")).toBe(false);
  });
});
