/** Up to `max` distinct failure lines of a test runner's output. */
export function failureLines(output: string, max?: number): string[];
