// Where the suite's time goes, from the JSON reports `npm test` already writes: each file's summed test durations
// (worker-seconds: files run side by side, so they add up to more than the step's wall time) and test count.
import path from "node:path";

/**
 * Per file of a Vitest JSON report: { file, seconds, tests }. A file's time runs from its start to its end, so its
 * hooks (a database made and dropped) count; without those times, its tests' durations summed.
 */
export function vitestFileTimes(report, root = "") {
  return (report?.testResults ?? []).map((file) => {
    const tests = file.assertionResults ?? [];
    const summed = tests.reduce((sum, test) => sum + (test.duration ?? 0), 0);
    const whole = file.endTime > file.startTime ? file.endTime - file.startTime : summed;
    return { file: relative(file.name, root), seconds: whole / 1000, tests: tests.length };
  });
}

/** Per file of a Playwright JSON report: { file, seconds, tests } (every attempt of a test counts its time). */
export function playwrightFileTimes(report) {
  const files = new Map();
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) {
        const entry = files.get(file) ?? { file, seconds: 0, tests: 0 };
        entry.tests += 1;
        entry.seconds += (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0) / 1000;
        files.set(file, entry);
      }
    for (const child of suite.suites ?? []) walk(child, file);
  };
  const testDir = path.relative(process.cwd(), report?.config?.projects?.[0]?.testDir ?? process.cwd());
  for (const suite of report?.suites ?? []) walk(suite, testDir ? `${testDir}/${suite.file}` : suite.file);
  return [...files.values()];
}

function relative(file, root) {
  const cwd = `${root || process.cwd()}/`;
  return file.startsWith(cwd) ? file.slice(cwd.length) : file;
}

/** The `count` slowest files and the total, as lines for the log: "  123.4 s   12 tests  tests/e2e/x.spec.ts". */
export function slowestFilesLines(title, times, count = 10) {
  if (times.length === 0) return [`${title}: no report`];
  const total = times.reduce((sum, t) => sum + t.seconds, 0);
  const tests = times.reduce((sum, t) => sum + t.tests, 0);
  const rows = [...times].sort((a, b) => b.seconds - a.seconds).slice(0, count);
  return [
    `${title}: ${total.toFixed(1)} worker-seconds over ${tests} tests in ${times.length} files; the ${rows.length} slowest:`,
    ...rows.map((t) => `${t.seconds.toFixed(1).padStart(9)} s ${String(t.tests).padStart(5)} tests  ${t.file}`),
  ];
}
