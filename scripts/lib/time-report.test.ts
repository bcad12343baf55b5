import { describe, expect, it } from "vitest";
import { playwrightFileTimes, slowestFilesLines, vitestFileTimes } from "./time-report.mjs";

describe("the suite's time report", () => {
  it("takes each Vitest file's time from its start to its end (hooks included), else its tests' durations", () => {
    const report = {
      testResults: [
        {
          name: "/repo/app/a.test.ts",
          startTime: 10_000,
          endTime: 12_000,
          assertionResults: [{ duration: 900 }, { duration: 500 }],
        },
        { name: "/repo/tests/integration/b.test.ts", assertionResults: [{ duration: 250 }] },
      ],
    };
    expect(vitestFileTimes(report, "/repo")).toEqual([
      { file: "app/a.test.ts", seconds: 2, tests: 2 },
      { file: "tests/integration/b.test.ts", seconds: 0.25, tests: 1 },
    ]);
  });

  it("sums each Playwright file's results, nested describes and retries included", () => {
    const report = {
      config: { projects: [{ testDir: `${process.cwd()}/tests/e2e` }] },
      suites: [
        {
          file: "a.spec.ts",
          specs: [{ tests: [{ results: [{ duration: 1000 }, { duration: 3000 }] }] }],
          suites: [{ specs: [{ tests: [{ results: [{ duration: 2000 }] }] }] }],
        },
        { file: "b.spec.ts", specs: [{ tests: [{ results: [{ duration: 500 }] }] }] },
      ],
    };
    expect(playwrightFileTimes(report)).toEqual([
      { file: "tests/e2e/a.spec.ts", seconds: 6, tests: 2 },
      { file: "tests/e2e/b.spec.ts", seconds: 0.5, tests: 1 },
    ]);
  });

  it("lists the slowest first with the total, and says when there is no report", () => {
    const lines = slowestFilesLines(
      "end-to-end",
      [
        { file: "x.spec.ts", seconds: 1, tests: 1 },
        { file: "y.spec.ts", seconds: 12.34, tests: 3 },
        { file: "z.spec.ts", seconds: 5, tests: 2 },
      ],
      2,
    );
    expect(lines).toEqual([
      "end-to-end: 18.3 worker-seconds over 6 tests in 3 files; the 2 slowest:",
      "     12.3 s     3 tests  y.spec.ts",
      "      5.0 s     2 tests  z.spec.ts",
    ]);
    expect(slowestFilesLines("unit + integration", [])).toEqual(["unit + integration: no report"]);
  });
});
