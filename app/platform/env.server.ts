import net from "node:net";
import path from "node:path";
import { z } from "zod";

/** Empty strings (as left by a copied .env.example) count as "not set". */
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalUrl = z.preprocess(blankToUndefined, z.url({ message: "expected an absolute URL" }).optional());
/** One URL or several separated by commas (e.g. the shop's invoice pages and a gateway that allows framing). */
const optionalUrlList = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((v) => v.split(",").every((item) => z.url().safeParse(item.trim()).success), {
      message: "expected absolute URLs separated by commas",
    })
    .optional(),
);
const optionalString = z.preprocess(blankToUndefined, z.string().trim().optional());

/** smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://user:pass@host:465 (TLS from the start). */
export function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const MAILBOX = /^(?:"?([^"<>\r\n]*?)"?\s*<([^<>\s]+)>|([^<>\s"]+))$/;

/** A sender as mail headers write it: `shop@example.com` or `Kestrel Software <shop@example.com>`. */
export function parseMailbox(value: string): { name?: string; address: string } | undefined {
  const match = MAILBOX.exec(value.trim());
  const address = match?.[2] ?? match?.[3];
  if (!address || !z.email().safeParse(address).success) return undefined;
  const name = match?.[1]?.trim();
  return name ? { name, address } : { address };
}

/** The proxies whose X-Forwarded-For is believed when the server is reached on a private or local address. */
export const DEFAULT_TRUST_PROXY = "loopback, linklocal, uniquelocal";
const TRUST_PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const TRUST_PROXY_EXPECTED = "expected a hop count like 1, or addresses and subnets like loopback, 10.0.0.0/8";

/** One proxy address, subnet (prefix or dotted mask) or Express's named range; what Express's `trust proxy` accepts. */
function isTrustedProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address = "", range, ...extra] = entry.split("/");
  const family = net.isIP(address);
  if (family === 0 || extra.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && net.isIPv4(range);
}

/**
 * TRUST_PROXY as Express's `trust proxy` takes it: a hop count (how many proxies in front append to X-Forwarded-For),
 * or the addresses and subnets of the proxies themselves. Trusting every proxy (`true`) would let any client pick the
 * address its rate limits are counted under, so it is refused.
 */
export function parseTrustProxy(value: string): number | string[] | undefined {
  const trimmed = value.trim();
  if (/^\d{1,3}$/.test(trimmed)) return Number(trimmed);
  const entries = trimmed.split(",").map((entry) => entry.trim().toLowerCase());
  return entries.length > 0 && entries.every(isTrustedProxyEntry) ? entries : undefined;
}

const trustProxy = z.preprocess(
  blankToUndefined,
  z
    .string()
    .default(DEFAULT_TRUST_PROXY)
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed === undefined) ctx.issues.push({ code: "custom", message: TRUST_PROXY_EXPECTED, input: value });
      return parsed ?? z.NEVER;
    }),
);

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number({ message: "expected a port number" }).int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    TRUST_PROXY: trustProxy,
    METRICS_PORT: z.preprocess(
      blankToUndefined,
      z.coerce.number({ message: "expected a port number" }).int().min(1).max(65535).optional(),
    ),
    METRICS_HOST: z.string().min(1).default("127.0.0.1"),
    PUBLIC_URL: z
      .url({ message: "expected an absolute URL like https://shop.example.com" })
      .default("http://localhost:3000"),
    DATA_DIR: z.string().min(1).default("./data"),
    /** A release file larger than this many MB is refused while it streams in (docs/releases.md). */
    RELEASE_MAX_FILE_MB: z.preprocess(
      blankToUndefined,
      z.coerce.number({ message: "expected a number of MB" }).int().min(1).max(1_048_576).default(2048),
    ),
    /** Downloads one order may start per UTC day before the page says when they open again (docs/releases.md). */
    RELEASE_DOWNLOADS_PER_DAY: z.preprocess(
      blankToUndefined,
      z.coerce.number({ message: "expected a number of downloads" }).int().min(1).max(100_000).default(20),
    ),
    /** Audit log entries older than this many days are pruned (docs/console.md). */
    AUDIT_RETENTION_DAYS: z.preprocess(
      blankToUndefined,
      z.coerce.number({ message: "expected a number of days" }).int().min(1).max(36500).default(365),
    ),
    DATABASE_URL: optionalUrl.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: "expected a postgres:// URL",
    }),
    REDIS_URL: optionalUrl.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
      message: "expected a redis:// URL",
    }),
    CHECKOUT_PROVIDER: z.enum(["demo", "sellauth"], { message: "expected demo or sellauth" }).default("demo"),
    CONTENT_DIR: z.string().min(1).default("./content"),
    // Off: the console's content rooms are read-only, for shops whose only source of content is git (docs/content.md).
    CONTENT_EDITING: z.enum(["on", "off"], { message: "expected on or off" }).default("on"),
    CHECKOUT_MODAL: z.enum(["on", "off"], { message: "expected on or off" }).default("on"),
    // The test-only pseudo-locale at /en-xa/… (docs/i18n.md): accented, longer text that shows untranslated words.
    PSEUDO_LOCALE: z.enum(["on", "off"], { message: "expected on or off" }).default("off"),
    SHOP_ID: z.string().regex(/^\d+$/, { message: "expected a numeric shop id" }).default("151480"),
    SHOP_API_BASE: z.url({ message: "expected an absolute URL" }).default("https://api.sellauth.com"),
    SHOP_CHECKOUT_ORIGIN: optionalUrlList,
    SHOP_API_KEY: optionalString,
    SHOP_WEBHOOK_SECRET: optionalString,
    /** Where the shop's Cloudflare image ids are delivered from: `{url}/{account hash}/{id}/public` (docs/shop.md). */
    SHOP_IMAGE_DELIVERY_URL: z.url({ message: "expected an absolute URL" }).default("https://imagedelivery.net"),
    SHOP_IMAGE_ACCOUNT_HASH: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: "expected a Cloudflare Images account hash" })
      .default("HL_Fwm__tlvUGLZF2p74xw"),
    ALTCHA_HMAC_KEY: optionalString,
    /** Secret: keys the hashes the audit log keeps instead of what was looked up (docs/console.md). */
    AUDIT_HASH_KEY: optionalString,
    SUPPORT_WEBHOOK_URL: optionalUrl,
    /** Secret: the support bot's token (Developer Portal → Bot → Reset Token), sent as `Authorization: Bot …`. */
    DISCORD_BOT_TOKEN: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9._-]+$/, {
          message: 'expected the token from the Developer Portal (Bot → Reset Token), without a "Bot " prefix',
        })
        .optional(),
    ),
    /** The channel support requests are posted into (a text or forum channel), by its snowflake id. */
    DISCORD_SUPPORT_CHANNEL_ID: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .regex(/^\d{17,20}$/, { message: "expected a channel id (17 to 20 digits, Copy Channel ID in Discord)" })
        .optional(),
    ),
    /** Discord's REST API; tests point it at the emulator. */
    DISCORD_API_BASE: z.url({ message: "expected an absolute URL" }).default("https://discord.com/api/v10"),
    REVIEWS_SOURCE_URL: optionalUrl,
    REVIEWS_PRODUCT_SOURCE_URL: optionalUrl,
    /** Where reviews come from: the shop's verified feedback, vouch pages (REVIEWS_SOURCE_URL), or content/reviews.json. */
    REVIEWS_SOURCE: z.preprocess(
      blankToUndefined,
      z.enum(["shop", "vouch", "content"], { message: "expected shop, vouch or content" }).optional(),
    ),
    /** `content`: products from content/products.json (the demo); `sellauth`: the connected shop's, content overlaid. */
    CATALOG_SOURCE: z.enum(["content", "sellauth"], { message: "expected content or sellauth" }).default("content"),
    CATALOG_REFRESH_SECONDS: z.coerce
      .number({ message: "expected a number of seconds" })
      .int()
      .min(10, { message: "expected at least 10 seconds" })
      .default(300),
    /** The shortest probe interval content/status.json may ask for (30 s; tests lower it to run in seconds). */
    STATUS_PROBE_MIN_INTERVAL_SECONDS: z.coerce
      .number({ message: "expected a number of seconds" })
      .positive({ message: "expected more than 0 seconds" })
      .default(30),
    /** A product's status alerts to the support channel are at least this far apart (a flapping probe never floods it). */
    STATUS_ALERT_GAP_SECONDS: z.coerce
      .number({ message: "expected a number of seconds" })
      .min(0, { message: "expected 0 or more seconds" })
      .default(600),
    /** A team reply the visitor has not seen on the page this long is emailed (tests lower it to run in seconds). */
    SUPPORT_UNSEEN_REPLY_MAIL_AFTER_SECONDS: z.coerce
      .number({ message: "expected a number of seconds" })
      .positive({ message: "expected more than 0 seconds" })
      .default(120),
    /** How often a request's Discord thread is asked whether the team archived or locked it (tests lower it). */
    SUPPORT_THREAD_STATE_CHECK_SECONDS: z.coerce
      .number({ message: "expected a number of seconds" })
      .positive({ message: "expected more than 0 seconds" })
      .default(300),
    /** Secret (it carries the SMTP password): empty keeps every mail in the database (`npm run cli -- mail list`). */
    SMTP_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .refine(isSmtpUrl, { message: "expected smtp://user:pass@host:587 or smtps://user:pass@host:465" })
        .optional(),
    ),
    MAIL_FROM: z.preprocess(
      blankToUndefined,
      z
        .string()
        .refine((value) => parseMailbox(value) !== undefined, {
          message: "expected an address like shop@example.com or Kestrel Software <shop@example.com>",
        })
        .optional(),
    ),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  })
  .refine((env) => env.CATALOG_SOURCE !== "sellauth" || env.SHOP_API_KEY !== undefined, {
    message: "sellauth reads the shop's catalogue with its API: set SHOP_API_KEY too",
    path: ["CATALOG_SOURCE"],
  })
  .refine((env) => env.SMTP_URL === undefined || env.MAIL_FROM !== undefined, {
    message: "required when SMTP_URL is set, e.g. Kestrel Software <shop@example.com>",
    path: ["MAIL_FROM"],
  })
  .refine((env) => env.DISCORD_BOT_TOKEN === undefined || env.DISCORD_SUPPORT_CHANNEL_ID !== undefined, {
    message: "required when DISCORD_BOT_TOKEN is set: the id of the support channel",
    path: ["DISCORD_SUPPORT_CHANNEL_ID"],
  })
  .refine((env) => env.DISCORD_SUPPORT_CHANNEL_ID === undefined || env.DISCORD_BOT_TOKEN !== undefined, {
    message: "required when DISCORD_SUPPORT_CHANNEL_ID is set: the bot's token",
    path: ["DISCORD_BOT_TOKEN"],
  })
  .refine((env) => env.REVIEWS_SOURCE !== "shop" || env.SHOP_API_KEY !== undefined, {
    message: "shop reads the shop's feedback with its API: set SHOP_API_KEY too",
    path: ["REVIEWS_SOURCE"],
  })
  .refine(
    (env) =>
      env.REVIEWS_SOURCE !== "vouch" ||
      env.REVIEWS_SOURCE_URL !== undefined ||
      env.REVIEWS_PRODUCT_SOURCE_URL !== undefined,
    {
      message: "vouch needs REVIEWS_SOURCE_URL or REVIEWS_PRODUCT_SOURCE_URL",
      path: ["REVIEWS_SOURCE"],
    },
  );

export type Env = z.infer<typeof envSchema>;

/** Where reviews come from when REVIEWS_SOURCE is not set: vouch pages when either is configured, else content. */
export function reviewsSource(env: Env): "shop" | "vouch" | "content" {
  return env.REVIEWS_SOURCE ?? (env.REVIEWS_SOURCE_URL || env.REVIEWS_PRODUCT_SOURCE_URL ? "vouch" : "content");
}

/** Names whose values must never reach the browser, logs or HTML. */
export const SECRET_ENV_NAMES = [
  "SHOP_API_KEY",
  "SHOP_WEBHOOK_SECRET",
  "SUPPORT_WEBHOOK_URL",
  "DISCORD_BOT_TOKEN",
  "SMTP_URL",
  "ALTCHA_HMAC_KEY",
  "AUDIT_HASH_KEY",
  "DATABASE_URL",
  "REDIS_URL",
] as const;

export class EnvError extends Error {}

/** Parses configuration; the error message is one line naming the variable and what was expected. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    const raw = source[name];
    // Secret values are never echoed, even when malformed.
    const shown =
      (SECRET_ENV_NAMES as readonly string[]).includes(name) || raw === undefined
        ? ""
        : ` (got ${JSON.stringify(raw)})`;
    throw new EnvError(`Invalid configuration: ${name}: ${issue?.message ?? "invalid value"}${shown}`);
  }
  return { ...result.data, DATA_DIR: path.resolve(result.data.DATA_DIR) };
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests swap configuration without restarting the process. */
export function resetEnvForTests(next?: Env) {
  cached = next;
}
