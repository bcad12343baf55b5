import { stripVTControlCharacters } from "node:util";

// Picks the lines of a test runner's output that say what failed, for the end of the `npm test` log.
const FAILURE =
  /(FAIL |✘|✗|×|Error:|Unhandled|AssertionError|Timed out|timed out|exited with|\berror\b.*:|last test to run|^❯ (?!.*(node_modules|node:internal)).*:\d+:\d+)/i;
const NOISE = /^(✓|\{"level"|This might cause false positive)/;

/** Up to `max` distinct failure lines (colours stripped, each at most 200 characters); the last lines when none match. */
export function failureLines(output, max = 12) {
  const lines = stripVTControlCharacters(output)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const picked = [...new Set(lines.filter((line) => FAILURE.test(line) && !NOISE.test(line)))];
  return (picked.length > 0 ? picked : lines.slice(-5)).slice(0, max).map((line) => line.slice(0, 200));
}
