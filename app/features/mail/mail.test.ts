import { describe, expect, it } from "vitest";
import { isFinalMailStatus, mailInputSchema, mailRetryDelayMs, withoutAddresses } from "./mail";
import { classifySmtpError, describeSmtpServer } from "./smtp.server";

describe("mail retry schedule", () => {
  it("waits 5 s, 10 s, 20 s, … (at most) after each failed attempt, and never less than half of that", () => {
    const ceilings = [1, 2, 3, 4, 5].map((attempt) => mailRetryDelayMs(attempt, () => 1));
    expect(ceilings).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect([1, 2, 3].map((attempt) => mailRetryDelayMs(attempt, () => 0))).toEqual([2_500, 5_000, 10_000]);
    expect(mailRetryDelayMs(2, () => 0.5)).toBe(7_500);
  });

  it("caps the wait at 10 minutes however often the server failed", () => {
    expect(mailRetryDelayMs(9, () => 1)).toBe(600_000);
    expect(mailRetryDelayMs(50, () => 1)).toBe(600_000);
    expect(mailRetryDelayMs(50, () => 0)).toBe(300_000);
  });

  it("takes its base and cap from the caller", () => {
    expect(mailRetryDelayMs(3, () => 1, 100, 250)).toBe(250);
    expect(mailRetryDelayMs(1, () => 1, 100, 250)).toBe(100);
  });
});

describe("mail input", () => {
  const valid = { kind: "sign-in-code", to: "buyer@example.com", subject: "Your code", text: "123456" };

  it("takes one recipient, a one-line subject and a text body", () => {
    expect(mailInputSchema.parse(valid)).toEqual(valid);
    expect(mailInputSchema.parse({ ...valid, subject: "  Your code  " }).subject).toBe("Your code");
  });

  it.each([
    ["two recipients", { to: "a@example.com, b@example.com" }],
    ["a name with the address", { to: "Buyer <buyer@example.com>" }],
    ["a header smuggled into the subject", { subject: "Hi\r\nBcc: all@example.com" }],
    ["an empty body", { text: "" }],
    ["a kind that is not kebab-case", { kind: "Sign In" }],
  ])("refuses %s", (_, change) => {
    expect(mailInputSchema.safeParse({ ...valid, ...change }).success).toBe(false);
  });

  it("knows which statuses are final", () => {
    expect(isFinalMailStatus("pending")).toBe(false);
    for (const status of ["sent", "failed", "expired", "kept"] as const) expect(isFinalMailStatus(status)).toBe(true);
  });
});

describe("SMTP answers", () => {
  it("blanks every address in a server's answer", () => {
    expect(withoutAddresses("550 5.1.1 <buyer@example.com>: Recipient address rejected")).toBe(
      "550 5.1.1 <[address]>: Recipient address rejected",
    );
    expect(withoutAddresses("from=shop@example.com to=a.b+c@mail.example.org")).toBe("from=[address] to=[address]");
  });

  it("gives up on a permanent 5xx and names the code, without the address", () => {
    expect(
      classifySmtpError({
        code: "EENVELOPE",
        responseCode: 550,
        response: "550 5.1.1 <buyer@example.com>: Recipient address rejected",
      }),
    ).toEqual({
      outcome: "rejected",
      responseCode: 550,
      reason: "EENVELOPE: 550 5.1.1 <[address]>: Recipient address rejected",
    });
  });

  it.each([
    ["a 4xx", { code: "EENVELOPE", responseCode: 451, response: "451 4.7.1 Greylisted" }],
    ["a refused connection", { code: "ESOCKET", message: "connect ECONNREFUSED 127.0.0.1:2525" }],
    ["a timeout", { code: "ETIMEDOUT", message: "Greeting never received" }],
    ["a refused login (the configuration's fault, not the mail's)", { code: "EAUTH", responseCode: 535 }],
    ["something unknown", new Error("boom")],
  ])("retries after %s", (_, error) => {
    expect(classifySmtpError(error)).toMatchObject({ outcome: "retry" });
  });

  it("names the SMTP server in logs without its credentials", () => {
    expect(describeSmtpServer("smtps://user:s3cret@mail.example.com:465")).toBe("smtps://mail.example.com:465");
  });
});
