import { describe, expect, it } from "vitest";
import { failureLines } from "./failure-lines.mjs";

describe("failureLines", () => {
  it("keeps Vitest's failed test and unhandled error lines, without colours, passing lines or pino logs", () => {
    const output = [
      "\x1b[32m✓\x1b[39m app/a.test.ts > works",
      '{"level":40,"msg":"vouch page refresh failed: error: x"}',
      "\x1b[31m FAIL \x1b[39m tests/integration/b.test.ts > drops the database",
      "AssertionError: expected 1 to be 2",
      "⎯⎯⎯ Unhandled Errors ⎯⎯⎯",
      "Error: Connection terminated unexpectedly",
      "AssertionError: expected 1 to be 2",
    ].join("\n");
    expect(failureLines(output)).toEqual([
      "FAIL  tests/integration/b.test.ts > drops the database",
      "AssertionError: expected 1 to be 2",
      "⎯⎯⎯ Unhandled Errors ⎯⎯⎯",
      "Error: Connection terminated unexpectedly",
    ]);
  });

  it("falls back to the last lines when nothing looks like a failure, and caps count and width", () => {
    expect(failureLines("a\nb\n\nc\nd\ne\nf")).toEqual(["b", "c", "d", "e", "f"]);
    const many = Array.from({ length: 30 }, (_, i) => `Error: ${i} ${"x".repeat(300)}`).join("\n");
    const lines = failureLines(many);
    expect(lines).toHaveLength(12);
    expect(lines[0]).toHaveLength(200);
  });
});
