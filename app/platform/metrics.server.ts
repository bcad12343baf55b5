import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Every metric the shop exposes, in one registry (served on METRICS_PORT; docs/deploy.md says what each means). */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const httpRequests = new Counter({
  name: "kestrel_http_requests_total",
  help: "HTTP requests answered, by route id (React Router route or API path pattern), method and status",
  labelNames: ["route", "method", "status"] as const,
  registers: [metricsRegistry],
});

export const httpRequestSeconds = new Histogram({
  name: "kestrel_http_request_duration_seconds",
  help: "Time from request to the end of the response, by route id",
  labelNames: ["route", "method"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const renderCacheLookups = new Counter({
  name: "kestrel_render_cache_lookups_total",
  help: "Rendered-HTML cache lookups for shareable pages, by result (hit, miss, shared: waited for another request's render)",
  labelNames: ["result"] as const,
  registers: [metricsRegistry],
});

export const supportOutboxDepth = new Gauge({
  name: "kestrel_support_outbox_requests",
  help: "Support requests in the outbox, by delivery status (read from the database when scraped)",
  labelNames: ["status"] as const,
  registers: [metricsRegistry],
});

export const supportDeliveryAttempts = new Counter({
  name: "kestrel_support_delivery_attempts_total",
  help: "Posts to the chat channel, by outcome (delivered, retry, rate_limited, failed, no_channel)",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

export const threadPostAttempts = new Counter({
  name: "kestrel_support_thread_post_attempts_total",
  help: "Visitor messages posted into their request's Discord thread, by outcome (delivered, retry, rate_limited, failed)",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

export const supportChannelPauses = new Counter({
  name: "kestrel_support_channel_pauses_total",
  help: "Times the chat channel answered 429 and delivery paused for its retry_after",
  registers: [metricsRegistry],
});

export const mailQueued = new Counter({
  name: "kestrel_mail_queued_total",
  help: "Mails accepted into the outbox, by mode (smtp: to be sent through SMTP_URL; kept: no SMTP_URL, kept in the database)",
  labelNames: ["mode"] as const,
  registers: [metricsRegistry],
});

export const mailSent = new Counter({
  name: "kestrel_mail_sent_total",
  help: "Mails the SMTP server accepted",
  registers: [metricsRegistry],
});

export const mailRetries = new Counter({
  name: "kestrel_mail_retries_total",
  help: "Send attempts that will be tried again later (SMTP server unreachable, timed out, or answering 4xx)",
  registers: [metricsRegistry],
});

export const mailFailed = new Counter({
  name: "kestrel_mail_failed_total",
  help: "Mails given up, by reason (rejected: a permanent 5xx; expired: not sent by its send-by time; gave_up: failing for 24 h)",
  labelNames: ["reason"] as const,
  registers: [metricsRegistry],
});

export const checkoutOutcomes = new Counter({
  name: "kestrel_checkout_outcomes_total",
  help: "Checkout requests, by outcome (created, refused: the shop said no, invalid: bad input, error: shop unreachable)",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

export const shopNotificationOutcomes = new Counter({
  name: "kestrel_shop_notifications_total",
  help: "Shop notifications received, by outcome (applied, duplicate, bad_signature, unknown_order, error)",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

export const reviewsRefreshOutcomes = new Counter({
  name: "kestrel_reviews_refresh_total",
  help: "Vouch-page refreshes, by outcome (updated, unchanged, failed)",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

export const catalogueSyncs = new Counter({
  name: "kestrel_catalogue_syncs_total",
  help: "Syncs of the connected shop's catalogue, by kind (full, partial: products a notification named) and outcome (ok, failed, rate_limited)",
  labelNames: ["kind", "outcome"] as const,
  registers: [metricsRegistry],
});

export const catalogueSyncSeconds = new Histogram({
  name: "kestrel_catalogue_sync_duration_seconds",
  help: "Time a catalogue sync took, from the first request to the shop to the snapshot written, by kind",
  labelNames: ["kind"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

export const catalogueProductsSkipped = new Gauge({
  name: "kestrel_catalogue_products_skipped",
  help: "Products the shop sent in the last sync that could not be read (malformed) and are not listed",
  registers: [metricsRegistry],
});

let catalogueSyncedAtMs: number | undefined;

/** When the catalogue being served was read from its source. */
export function recordCatalogueSyncedAt(syncedAt: Date) {
  catalogueSyncedAtMs = syncedAt.getTime();
}

export const catalogueAgeSeconds = new Gauge({
  name: "kestrel_catalogue_age_seconds",
  help: "Seconds since the catalogue being served was read from the shop (absent until the first sync)",
  registers: [metricsRegistry],
  collect() {
    if (catalogueSyncedAtMs !== undefined) this.set((Date.now() - catalogueSyncedAtMs) / 1000);
  },
});

export const statusProbeChecks = new Counter({
  name: "kestrel_status_probe_checks_total",
  help: "Probe checks of a product's URL by the probing instance, by product and outcome (ok, failed)",
  labelNames: ["product", "outcome"] as const,
  registers: [metricsRegistry],
});

export const statusProbeSeconds = new Histogram({
  name: "kestrel_status_probe_duration_seconds",
  help: "Time a probe check took until its answer (or its timeout), by product",
  labelNames: ["product"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

export const statusProductStatus = new Gauge({
  name: "kestrel_status_product_status",
  help: "Each product's current status on /status: 1 for the status it is in, 0 for the others",
  labelNames: ["product", "status"] as const,
  registers: [metricsRegistry],
});

export const signInCodesSent = new Counter({
  name: "kestrel_sign_in_codes_sent_total",
  help: "Sign-in codes for /orders mailed (to an address with orders)",
  registers: [metricsRegistry],
});

export const signInCodesAccepted = new Counter({
  name: "kestrel_sign_in_codes_accepted_total",
  help: "Sign-ins at /orders, by how (code: typed; link: the mail's link)",
  labelNames: ["via"] as const,
  registers: [metricsRegistry],
});
