import { describe, expect, it } from "vitest";
import { EnvError, parseEnv, parseMailbox, parseTrustProxy, SECRET_ENV_NAMES } from "./env.server";

function configError(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected parseEnv to fail");
}

describe("configuration", () => {
  it("uses the documented defaults when nothing is set", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      PUBLIC_URL: "http://localhost:3000",
      CHECKOUT_PROVIDER: "demo",
      SHOP_ID: "151480",
      LOG_LEVEL: "info",
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("treats blank optional values as not set", () => {
    expect(parseEnv({ DATABASE_URL: "", SHOP_API_KEY: " ", SUPPORT_WEBHOOK_URL: "" })).toMatchObject({
      DATABASE_URL: undefined,
      SHOP_API_KEY: undefined,
      SUPPORT_WEBHOOK_URL: undefined,
    });
  });

  it("names a bad PORT in one line", () => {
    const message = configError({ PORT: "eighty" });
    expect(message).toBe('Invalid configuration: PORT: expected a port number (got "eighty")');
    expect(message).not.toContain("\n");
  });

  it("rejects a PORT out of range", () => {
    expect(configError({ PORT: "70000" })).toMatch(/^Invalid configuration: PORT: /);
  });

  it("names a DATABASE_URL that is not postgres:// without echoing it", () => {
    const message = configError({ DATABASE_URL: "mysql://admin:hunter2@db/shop" });
    expect(message).toBe("Invalid configuration: DATABASE_URL: expected a postgres:// URL");
    expect(message).not.toContain("hunter2");
  });

  it("names a malformed DATABASE_URL without echoing it", () => {
    const message = configError({ DATABASE_URL: "not a url hunter2" });
    expect(message).toBe("Invalid configuration: DATABASE_URL: expected an absolute URL");
    expect(message).not.toContain("hunter2");
  });

  it("names a bad CHECKOUT_PROVIDER and the allowed values", () => {
    const message = configError({ CHECKOUT_PROVIDER: "stripe" });
    expect(message).toBe('Invalid configuration: CHECKOUT_PROVIDER: expected demo or sellauth (got "stripe")');
    expect(message).not.toContain("\n");
  });

  it("names a bad PUBLIC_URL", () => {
    expect(configError({ PUBLIC_URL: "shop.example.com" })).toBe(
      'Invalid configuration: PUBLIC_URL: expected an absolute URL like https://shop.example.com (got "shop.example.com")',
    );
  });

  it("names the first bad variable only, in one line", () => {
    const message = configError({ PORT: "x", CHECKOUT_PROVIDER: "y" });
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toMatch(/^Invalid configuration: (PORT|CHECKOUT_PROVIDER): /);
  });

  it.each([
    ["REDIS_URL", "http://user:s3cret-value@cache:6379"],
    ["SUPPORT_WEBHOOK_URL", "s3cret-value"],
    ["SMTP_URL", "http://user:s3cret-value@mail.example.com:587"],
    ["SMTP_URL", "smtp:user:s3cret-value"],
    ["DISCORD_BOT_TOKEN", "Bot s3cret-value"],
  ])("never echoes the value of the secret %s", (name, value) => {
    expect(SECRET_ENV_NAMES).toContain(name);
    const message = configError({ [name]: value });
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name}: `));
    expect(message).not.toContain("s3cret-value");
  });

  it("trusts proxies on loopback, link-local and private addresses by default", () => {
    expect(parseEnv({}).TRUST_PROXY).toEqual(["loopback", "linklocal", "uniquelocal"]);
    expect(parseEnv({ TRUST_PROXY: " " }).TRUST_PROXY).toEqual(["loopback", "linklocal", "uniquelocal"]);
  });

  it.each([
    ["1", 1],
    ["2", 2],
    ["0", 0],
    ["loopback", ["loopback"]],
    ["loopback, 173.245.48.0/20, 2400:cb00::/32", ["loopback", "173.245.48.0/20", "2400:cb00::/32"]],
    ["10.0.0.5,10.0.1.0/24", ["10.0.0.5", "10.0.1.0/24"]],
    ["10.0.0.0/255.0.0.0", ["10.0.0.0/255.0.0.0"]],
    ["::1, FE80::/10", ["::1", "fe80::/10"]],
  ])("reads TRUST_PROXY=%j as %j", (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each([
    "true",
    "all",
    "10.0.0.0/33",
    "::1/129",
    "10.0.0/8",
    "10.0.0.0/8/8",
    "10.0.0.0/255.0.0",
    "loopback,,10.0.0.1",
    "-1",
  ])("refuses TRUST_PROXY=%j in one line naming it", (value) => {
    expect(parseTrustProxy(value)).toBeUndefined();
    expect(configError({ TRUST_PROXY: value })).toBe(
      `Invalid configuration: TRUST_PROXY: expected a hop count like 1, or addresses and subnets like loopback, 10.0.0.0/8 (got ${JSON.stringify(value)})`,
    );
  });

  it("serves no metrics unless METRICS_PORT is set, and binds them to 127.0.0.1 by default", () => {
    expect(parseEnv({ METRICS_PORT: "" })).toMatchObject({ METRICS_PORT: undefined, METRICS_HOST: "127.0.0.1" });
    expect(parseEnv({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" })).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_HOST: "0.0.0.0",
    });
    expect(configError({ METRICS_PORT: "metrics" })).toBe(
      'Invalid configuration: METRICS_PORT: expected a port number (got "metrics")',
    );
    expect(configError({ METRICS_PORT: "0" })).toMatch(/^Invalid configuration: METRICS_PORT: /);
  });

  it("keeps mail in the database when SMTP_URL is not set, and needs no MAIL_FROM then", () => {
    expect(parseEnv({ SMTP_URL: "", MAIL_FROM: "" })).toMatchObject({ SMTP_URL: undefined, MAIL_FROM: undefined });
  });

  it.each([
    "smtp://user:pass@mail.example.com:587",
    "smtps://user:p%40ss@mail.example.com:465",
    "smtp://127.0.0.1:2525",
  ])("takes SMTP_URL=%s with a MAIL_FROM", (url) => {
    const env = parseEnv({ SMTP_URL: url, MAIL_FROM: "Kestrel Software <shop@example.com>" });
    expect(env.SMTP_URL).toBe(url);
    expect(env.MAIL_FROM).toBe("Kestrel Software <shop@example.com>");
  });

  it.each(["http://mail.example.com", "smtp://", "mail.example.com:587"])(
    "stops at a malformed SMTP_URL=%j in one line, without echoing it",
    (url) => {
      const message = configError({ SMTP_URL: url, MAIL_FROM: "shop@example.com" });
      expect(message).toBe(
        "Invalid configuration: SMTP_URL: expected smtp://user:pass@host:587 or smtps://user:pass@host:465",
      );
    },
  );

  it("asks for MAIL_FROM when SMTP_URL is set", () => {
    expect(configError({ SMTP_URL: "smtp://mail.example.com:587" })).toBe(
      "Invalid configuration: MAIL_FROM: required when SMTP_URL is set, e.g. Kestrel Software <shop@example.com>",
    );
  });

  it.each([
    ["shop@example.com", { address: "shop@example.com" }],
    ["Kestrel Software <shop@example.com>", { name: "Kestrel Software", address: "shop@example.com" }],
    ['"Kestrel, Inc." <shop@example.com>', { name: "Kestrel, Inc.", address: "shop@example.com" }],
    ["<shop@example.com>", { address: "shop@example.com" }],
  ])("reads MAIL_FROM=%j", (value, mailbox) => {
    expect(parseMailbox(value)).toEqual(mailbox);
    expect(parseEnv({ MAIL_FROM: value }).MAIL_FROM).toBe(value);
  });

  it.each(["shop", "shop@", "Kestrel Software", "Kestrel <shop@example.com", "a@example.com, b@example.com"])(
    "stops at a malformed MAIL_FROM=%j in one line naming it",
    (value) => {
      expect(parseMailbox(value)).toBeUndefined();
      expect(configError({ MAIL_FROM: value })).toBe(
        `Invalid configuration: MAIL_FROM: expected an address like shop@example.com or Kestrel Software <shop@example.com> (got ${JSON.stringify(value)})`,
      );
    },
  );

  it("talks to Discord's API v10 by default, and only with both the bot token and the channel id", () => {
    const env = parseEnv({});
    expect(env.DISCORD_API_BASE).toBe("https://discord.com/api/v10");
    expect(env.DISCORD_BOT_TOKEN).toBeUndefined();
    expect(env.DISCORD_SUPPORT_CHANNEL_ID).toBeUndefined();
    expect(
      parseEnv({
        DISCORD_BOT_TOKEN: "MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbCdE.abcdefghijklmnopqrstuvwxyz0123456789AB",
        DISCORD_SUPPORT_CHANNEL_ID: "1234567890123456789",
        DISCORD_API_BASE: "http://127.0.0.1:9999/api/v10",
      }),
    ).toMatchObject({
      DISCORD_SUPPORT_CHANNEL_ID: "1234567890123456789",
      DISCORD_API_BASE: "http://127.0.0.1:9999/api/v10",
    });
  });

  it.each(["general", "12345", "#1234567890123456789"])("stops at DISCORD_SUPPORT_CHANNEL_ID=%j in one line", (id) => {
    expect(configError({ DISCORD_BOT_TOKEN: "token.part.three", DISCORD_SUPPORT_CHANNEL_ID: id })).toBe(
      `Invalid configuration: DISCORD_SUPPORT_CHANNEL_ID: expected a channel id (17 to 20 digits, Copy Channel ID in Discord) (got ${JSON.stringify(id)})`,
    );
  });

  it("asks for the other half when only the token or only the channel id is set", () => {
    expect(configError({ DISCORD_BOT_TOKEN: "token.part.three" })).toBe(
      "Invalid configuration: DISCORD_SUPPORT_CHANNEL_ID: required when DISCORD_BOT_TOKEN is set: the id of the support channel",
    );
    expect(configError({ DISCORD_SUPPORT_CHANNEL_ID: "1234567890123456789" })).toBe(
      "Invalid configuration: DISCORD_BOT_TOKEN: required when DISCORD_SUPPORT_CHANNEL_ID is set: the bot's token",
    );
  });

  it('refuses a token pasted with its "Bot " prefix, without echoing it', () => {
    const message = configError({
      DISCORD_BOT_TOKEN: "Bot abc.def.ghi",
      DISCORD_SUPPORT_CHANNEL_ID: "1234567890123456789",
    });
    expect(message).toBe(
      'Invalid configuration: DISCORD_BOT_TOKEN: expected the token from the Developer Portal (Bot → Reset Token), without a "Bot " prefix',
    );
    expect(message).not.toContain("abc.def.ghi");
  });

  it("names a DISCORD_API_BASE that is not a URL", () => {
    expect(configError({ DISCORD_API_BASE: "discord.com/api" })).toBe(
      'Invalid configuration: DISCORD_API_BASE: expected an absolute URL (got "discord.com/api")',
    );
  });
});
