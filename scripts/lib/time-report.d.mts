export interface FileTime {
  file: string;
  seconds: number;
  tests: number;
}
/** Per file of a Vitest JSON report. */
export function vitestFileTimes(report: unknown, root?: string): FileTime[];
/** Per file of a Playwright JSON report. */
export function playwrightFileTimes(report: unknown): FileTime[];
/** The `count` slowest files and the total worker-seconds, as log lines. */
export function slowestFilesLines(title: string, times: FileTime[], count?: number): string[];
