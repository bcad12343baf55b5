import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { SECRET_ENV_NAMES } from "./env.server";
import { createLogger } from "./logger.server";

/** A logger writing its JSON lines into an array, so each test reads exactly what would reach the log. */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: createLogger("info", destination), lines };
}

describe("log redaction", () => {
  it.each(SECRET_ENV_NAMES)("writes [redacted] instead of %s, at the top level and nested", (name) => {
    const { logger, lines } = capturingLogger();
    const secret = `secret-value-of-${name}`;
    logger.info({ [name]: secret }, "top level");
    logger.info({ env: { [name]: secret } }, "nested");
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(JSON.parse(line)).toMatchObject(
        line.includes('"nested"') ? { env: { [name]: "[redacted]" } } : { [name]: "[redacted]" },
      );
    }
  });

  it("writes [redacted] instead of credentials in request headers", () => {
    const { logger, lines } = capturingLogger();
    logger.info(
      {
        req: {
          headers: { authorization: "Bearer abc", cookie: "session=abc", "x-signature": "abc123", accept: "text/html" },
        },
      },
      "request",
    );
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
      req: {
        headers: {
          authorization: "[redacted]",
          cookie: "[redacted]",
          "x-signature": "[redacted]",
          accept: "text/html",
        },
      },
    });
  });
});
