import type { ColumnType, Generated } from "kysely";

/** Timestamps are ISO-8601 UTC strings in both dialects so queries and results are identical. */
export interface StatusEntriesTable {
  id: Generated<number>;
  name: string;
  status: string;
  uptime: string;
  sort_order: number;
  updated_at: string;
}

export interface IncidentsTable {
  id: Generated<number>;
  title: string;
  body: string;
  started_at: string;
  resolved_at: string | null;
  /** investigating, identified, monitoring or resolved: the newest update's. */
  status: ColumnType<string, string | undefined, string>;
  /** JSON array of the affected products' status names. */
  products: ColumnType<string, string | undefined, string>;
  /** `operator` (the CLI) or `probe` (opened by a failing probe, which resolves it on recovery). */
  opened_by: ColumnType<string, string | undefined, string>;
}

/** One timed update of an incident (the first one is its opening message). */
export interface IncidentUpdatesTable {
  id: Generated<number>;
  incident_id: number;
  status: string;
  body: string;
  created_at: string;
}

/** Every status change of a product, with its time: the page's uptime is computed from these. */
export interface StatusChangesTable {
  id: Generated<number>;
  name: string;
  status: string;
  changed_at: string;
  /** `operator` (CLI), `probe`, `seed` (first boot) or `import` (history brought along). */
  source: string;
}

/** What a product's probe has seen lately, shared so another instance can take the probing over mid-count. */
export interface StatusProbesTable {
  name: string;
  failures: ColumnType<number, number | undefined, number>;
  successes: ColumnType<number, number | undefined, number>;
  checked_at: string | null;
  /** 1 when the last check passed, 0 when it failed. */
  ok: number | null;
  latency_ms: number | null;
  detail: string | null;
  /** The incident this probe opened and may resolve. */
  incident_id: number | null;
  /** The last status the support channel was told about, and when (the flap limit). */
  notified_at: string | null;
  notified_status: string | null;
  /** Transitions not yet told because of the flap limit. */
  held_changes: ColumnType<number, number | undefined, number>;
}

/** Cached vouch page per source URL; payload is the JSON array of parsed reviews (our Review type). */
export interface ReviewsCacheTable {
  source: string;
  fetched_at: string | null;
  payload: string | null;
  etag: string | null;
  last_error: string | null;
  last_attempt_at: string | null;
}

export type OrderStatus = "pending" | "completed" | "failed" | "refunded";

export interface OrdersTable {
  /** Our order number (uuid), shown to the buyer and used in /purchase/success?order_id=. */
  id: string;
  provider: string;
  provider_invoice_id: string | null;
  product_id: number;
  variant_id: number;
  quantity: number;
  amount_cents: number;
  status: OrderStatus;
  created_at: string;
  completed_at: string | null;
  /** Idempotency key of the shop notification that last changed the status. */
  raw_event_id: string | null;
  /** The shop's invoice status as last read (e.g. `confirming`), kept as the shop spelled it. */
  shop_status: ColumnType<string | null, string | null | undefined, string | null>;
  /** The coupon code the buyer sent to the shop, if any. */
  coupon: ColumnType<string | null, string | null | undefined, string | null>;
  /** The buyer's address, trimmed and lower-cased, when the checkout asked for it (the demo shop does). */
  buyer_email: ColumnType<string | null, string | null | undefined, string | null>;
  /** The key the demo shop delivered on payment. A secret: never logged, shown only to the proven address. */
  delivered_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Spent ALTCHA payloads (replay protection when no Redis is configured). */
export interface CaptchaUsedTable {
  signature: string;
  expires_at: string;
}

/** Every shop notification we accepted, keyed by its Idempotency-Key; unknown invoices are kept too. */
export interface ShopNotificationsTable {
  idempotency_key: string;
  invoice_id: string | null;
  event: string;
  received_at: string;
  outcome: string;
  order_id: string | null;
}

/** The support outbox: answers are kept until the chat channel has them (`delivery_status` delivered). */
export interface SupportRequestsTable {
  id: string;
  category: string;
  /** JSON array of the visitor's answers, in question order. */
  answers: string;
  /** The language the visitor chatted in (`de`); null for status alerts and requests from before it was kept. */
  locale: string | null;
  created_at: string;
  delivery_status: "pending" | "delivered" | "failed" | "no_channel";
  attempts: number;
  next_attempt_at: string;
  first_failed_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
  /** Which worker holds the request and until when; an expired claim is free again (crash recovery). */
  claimed_by: string | null;
  claimed_until: string | null;
}

export type MailStatus = "pending" | "sent" | "failed" | "expired" | "kept";

/** The mail outbox: a mail is kept until the SMTP server accepted it (`sent`), refused it or its time ran out. */
export interface MailOutboxTable {
  id: string;
  /** What the mail is for (`sign-in-code`, `support-reply`): for the operator's list and the logs, never its text. */
  kind: string;
  from_address: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** The Message-ID header, the same on every attempt, so a mail re-sent after a crash can be recognised. */
  message_id: string;
  status: MailStatus;
  created_at: string;
  /** After this the mail is given up as `expired` instead of sent late (a sign-in code nobody waits for any more). */
  send_by: string | null;
  attempts: number;
  next_attempt_at: string;
  first_failed_at: string | null;
  last_error: string | null;
  sent_at: string | null;
  /** Which worker holds the mail and until when; an expired claim is free again (crash recovery). */
  claimed_by: string | null;
  claimed_until: string | null;
}

/** A chat channel paused by its 429 (`channel` is a digest of the webhook URL, never the URL itself). */
export interface ChannelPausesTable {
  channel: string;
  /** ISO-8601 time before which nothing is posted to the channel. */
  paused_until: string;
}

/** One sync of the connected shop's catalogue; the highest version is the one served (payload: our ShopSnapshot). */
export interface CatalogueSnapshotsTable {
  version: Generated<number>;
  synced_at: string;
  payload: string;
}

/** A resync a shop notification asked for, taken by the instance that holds the sync lease. */
export interface CatalogueSyncRequestsTable {
  id: Generated<number>;
  kind: "product" | "feedback" | "full";
  product_id: number | null;
  requested_at: string;
}

/** Who does a cluster-wide job (the catalogue sync) until when; an expired lease is free for anyone. */
export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** A one-time sign-in code for /orders and its link: only their hashes; dead once used, expired or out of tries. */
export interface BuyerSignInCodesTable {
  id: string;
  /** Lower-cased. */
  email: string;
  code_hash: string;
  link_hash: string;
  /** The page language the code was asked in: its mail is written in it. */
  locale: string;
  /** The mail that carries it (null: the address has no orders, so nothing was sent). */
  mail_id: string | null;
  created_at: string;
  expires_at: string;
  tries_left: number;
  used_at: string | null;
}

/** A signed-in browser at /orders: the hash of its cookie's random id and the address it proved. */
export interface BuyerSessionsTable {
  id_hash: string;
  email: string;
  created_at: string;
  expires_at: string;
}

/** Every price the shop sync saw: one row per variant, UTC day and price (migration 017). */
export interface ShopPriceHistoryTable {
  variant_id: number;
  product_id: number;
  price_cents: number;
  currency: string;
  day: string;
  first_seen_at: string;
  last_seen_at: string;
}

export interface Database {
  status_entries: StatusEntriesTable;
  incidents: IncidentsTable;
  incident_updates: IncidentUpdatesTable;
  status_changes: StatusChangesTable;
  status_probes: StatusProbesTable;
  reviews_cache: ReviewsCacheTable;
  orders: OrdersTable;
  captcha_used: CaptchaUsedTable;
  shop_notifications: ShopNotificationsTable;
  support_requests: SupportRequestsTable;
  channel_pauses: ChannelPausesTable;
  mail_outbox: MailOutboxTable;
  catalogue_snapshots: CatalogueSnapshotsTable;
  shop_price_history: ShopPriceHistoryTable;
  catalogue_sync_requests: CatalogueSyncRequestsTable;
  leases: LeasesTable;
  buyer_sign_in_codes: BuyerSignInCodesTable;
  buyer_sessions: BuyerSessionsTable;
  support_conversations: SupportConversationsTable;
  support_conversation_messages: SupportConversationMessagesTable;
  support_conversation_notes: SupportConversationNotesTable;
  support_thread_posts: SupportThreadPostsTable;
  support_saved_replies: SupportSavedRepliesTable;
  support_conversation_keys: SupportConversationKeysTable;
  support_relay_status: SupportRelayStatusTable;
  staff: StaffTable;
  staff_passkeys: StaffPasskeysTable;
  staff_setup_links: StaffSetupLinksTable;
  staff_sessions: StaffSessionsTable;
  staff_challenges: StaffChallengesTable;
  audit_log: AuditLogTable;
  releases: ReleasesTable;
  release_files: ReleaseFilesTable;
  release_downloads: ReleaseDownloadsTable;
  release_imports: ReleaseImportsTable;
  content_revisions: ContentRevisionsTable;
  content_drafts: ContentDraftsTable;
  content_version: ContentVersionTable;
}

/**
 * A published change to one content document (migration 025, docs/content.md): `value` is the document in its file's
 * format (JSON or Markdown), NULL for a return to the file's text; `file_hash` the SHA-256 of the file default it
 * covered (`absent` when there was no file), so `content status` can tell when a deploy changed the default beneath it.
 */
export interface ContentRevisionsTable {
  id: Generated<number>;
  kind: string;
  locale: string;
  doc_key: string;
  value: string | null;
  base_revision: number | null;
  file_hash: string;
  /** `publish`, `restore` or `file` (back to the file's text). */
  action: "publish" | "restore" | "file";
  author: string;
  created_at: string;
}

/** The team's draft of a document: one per document, `stamp` grows with each save (a stale form is told so). */
export interface ContentDraftsTable {
  kind: string;
  locale: string;
  doc_key: string;
  value: string;
  base_revision: number | null;
  stamp: number;
  updated_by: string;
  updated_at: string;
}

/** One row (id 1): grows with every publish, in its transaction; each instance reloads when it differs. */
export interface ContentVersionTable {
  id: number;
  version: number;
  updated_at: string;
}

/** A member of the shop's team who may use the console (migration 018, docs/console.md). */
export interface StaffTable {
  id: string;
  /** Lower-cased. */
  email: string;
  role: "owner" | "admin" | "support";
  /** The WebAuthn user handle (base64url of 32 random bytes): passkeys name the person by it, never by email. */
  webauthn_user_id: string;
  created_at: string;
}

/** A passkey's public half: the credential id (base64url), its COSE public key (base64url) and signature counter. */
export interface StaffPasskeysTable {
  id: string;
  staff_id: string;
  public_key: string;
  /** Up to 2^32 - 1 (DOUBLE PRECISION on PostgreSQL, INTEGER on SQLite). */
  counter: number;
  /** JSON list of the authenticator's transports, handed back to browsers as hints. */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A one-time setup link (an hour): only its token's hash. */
export interface StaffSetupLinksTable {
  token_hash: string;
  staff_id: string;
  /** Who made it: a staff email or `cli`. */
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A signed-in browser: the hash of its cookie's id; 12 hours idle, 7 days at most. */
export interface StaffSessionsTable {
  id_hash: string;
  staff_id: string;
  /** A setup-link session may only create a passkey. */
  began_with: "passkey" | "setup-link";
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /** When the dashboard reminded this session to add a second passkey (once per session). */
  reminded_at: string | null;
}

/** A WebAuthn challenge (5 minutes, single use), so any instance can check the answer. */
export interface StaffChallengesTable {
  challenge_hash: string;
  purpose: "sign-in" | "register" | "confirm";
  /** A registration's challenge belongs to the session that asked for it. */
  session_hash: string | null;
  expires_at: string;
}

/** One audit entry: written before the answer is sent, never edited; pruned after AUDIT_RETENTION_DAYS. */
export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  /** Staff email, or `cli`, or `anonymous` for a refused sign-in nobody could be named for. */
  actor: string;
  action: string;
  target: string | null;
  /** JSON: what changed (before and after), or why a sign-in was refused. */
  detail: string | null;
  client_address: string | null;
  user_agent: string | null;
  session_began_with: "passkey" | "setup-link" | "cli" | null;
}

/** A support request's conversation (issue 30): the visitor reads it with a key (support_conversation_keys). */
export interface SupportConversationsTable {
  id: string;
  /** The support_requests row that opened it. */
  request_id: string;
  category: string;
  /** The visitor's language: their reply emails and the conversation page's default. */
  locale: string;
  /** The last answer when it is an email address: where the private link and unseen replies go. */
  visitor_email: string | null;
  /**
   * When that address was proven: the visitor was signed in at /orders with it when the request was sent (null: not
   * proven, so the console shows none of its orders).
   */
  visitor_email_proven_at: string | null;
  status: "open" | "resolved";
  /** Where the request was posted by the bot (null: no bot, or not posted yet). */
  channel_id: string | null;
  thread_id: string | null;
  /** The newest thread message already read (relayed or skipped): the `after` of the next read. */
  last_relayed_message_id: string | null;
  /** When the reader looks at the thread next (null: not read, no thread yet or resolved). */
  next_read_at: string | null;
  /** When the reader last read the thread: an active visitor's is read again this soon after, whatever next_read_at. */
  last_read_at: string | null;
  /** When the reader last asked Discord whether the thread is archived or locked (the team's "resolved"). */
  state_checked_at: string | null;
  /** The last time the visitor had the conversation open or wrote in it. */
  visitor_active_at: string;
  /** The highest `seq` the visitor's page has shown. */
  visitor_seen_seq: number;
  last_message_at: string;
  created_at: string;
  resolved_at: string | null;
  /** Whose turn it is: `us` (the visitor's message or the request waits for a reply) or `visitor`. */
  waiting_on: Generated<"us" | "visitor">;
  /** Since when it has been that side's turn (the inbox's "waited for", oldest first). */
  waiting_since: string | null;
  first_team_reply_at: string | null;
  /** The staff member it is assigned to in the console (null: unassigned). */
  assigned_staff_id: string | null;
}

/** One line of a conversation: the questionnaire, the visitor's messages and the team's replies. */
export interface SupportConversationMessagesTable {
  conversation_id: string;
  /** 1, 2, 3 … within the conversation: the event id a reconnecting stream replays after. */
  seq: number;
  id: string;
  author: "visitor" | "team" | "system";
  /** The replier's display name (team), null otherwise. */
  author_name: string | null;
  body: string;
  /** The Discord message a team reply came from: relayed once, whatever happens. */
  discord_message_id: string | null;
  created_at: string;
  /** A visitor's message on its way into the thread (null for the other authors and the questionnaire). */
  delivery_status: "pending" | "delivered" | "failed" | "no_channel" | null;
  attempts: number;
  next_attempt_at: string | null;
  first_failed_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
  claimed_by: string | null;
  claimed_until: string | null;
  /** A team reply the visitor did not see in time: when it went out in an email. */
  emailed_at: string | null;
  /** Where a team reply was written: the console, the Discord thread or the CLI (null for the other authors). */
  source: "console" | "discord" | "cli" | null;
  /** The console's writer of a team reply. */
  staff_id: string | null;
}

/** The team's internal note on a conversation: never in the visitor's tables, pages or mail. */
export interface SupportConversationNotesTable {
  id: string;
  conversation_id: string;
  author_name: string;
  staff_id: string | null;
  source: "console" | "discord";
  body: string;
  /** The `note:` it came from in the thread: stored once. */
  discord_message_id: string | null;
  created_at: string;
}

/** What the console still has to tell the request's Discord thread (an outbox): a reply, a note, archive or reopen. */
export interface SupportThreadPostsTable {
  id: string;
  conversation_id: string;
  kind: "reply" | "note" | "archive" | "unarchive";
  author_name: string | null;
  body: string | null;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  next_attempt_at: string | null;
  first_failed_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
  discord_message_id: string | null;
  claimed_by: string | null;
  claimed_until: string | null;
  created_at: string;
}

/** A saved reply agents insert into a reply or note (`locale` null: any language). */
export interface SupportSavedRepliesTable {
  id: string;
  title: string;
  body: string;
  locale: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/**
 * A key to a conversation, stored as its SHA-256: `browser` keys are cookie values (HttpOnly), `link` keys open the
 * conversation from a private link and are swapped for a new browser key.
 */
export interface SupportConversationKeysTable {
  key_hash: string;
  conversation_id: string;
  purpose: "browser" | "link";
  created_at: string;
}

/** What keeps the Discord bot from relaying replies (one row, `discord-bot`): every instance's pages read it. */
export interface SupportRelayStatusTable {
  name: string;
  /** null: replies are live; else why not (`unauthorized`, `missing_access`, `missing_permissions`, `intent_missing`). */
  blocked_reason: string | null;
  updated_at: string;
}

/** A product's release (migration 023, docs/releases.md): a draft until published; yanked ones are kept for the record. */
export interface ReleasesTable {
  id: string;
  product_id: number;
  /** Semver without a leading `v`. */
  version: string;
  channel: "stable" | "beta";
  state: "draft" | "published" | "yanked";
  /** Who may download it: the product's buyers, or anyone (an installer the licence key unlocks). */
  access: ColumnType<"buyers" | "anyone", "buyers" | "anyone" | undefined, "buyers" | "anyone">;
  /** JSON object of Markdown notes by locale (`en` is the fallback). */
  notes: ColumnType<string, string | undefined, string>;
  /** JSON list of requirement lines. */
  requirements: ColumnType<string, string | undefined, string>;
  created_at: string;
  published_at: string | null;
  yanked_at: string | null;
}

/** One file of a release: its checksums were computed by us while it was stored, never taken from the uploader. */
export interface ReleaseFilesTable {
  id: string;
  release_id: string;
  platform: string;
  name: string;
  /** BIGINT on PostgreSQL, which pg hands back as a string: read it with Number(). */
  size_bytes: ColumnType<number | string, number, number>;
  /** Hex. */
  sha256: string;
  /** Base64, as electron-updater's latest.yml wants it. */
  sha512: string;
  signature: string | null;
  /** Where the storage keeps it (never the uploaded name). */
  storage_key: string;
  created_at: string;
}

/** A counted download: one per download started from its first byte, never per range request. */
export interface ReleaseDownloadsTable {
  id: string;
  file_id: string;
  release_id: string;
  /** The order whose right opened it; null for a release open to anyone. */
  order_id: string | null;
  /** UTC `YYYY-MM-DD`. */
  day: string;
  at: string;
}

/** Seed imports that have run (the demo releases from content/downloads.json are imported once). */
export interface ReleaseImportsTable {
  name: string;
  imported_at: string;
}
