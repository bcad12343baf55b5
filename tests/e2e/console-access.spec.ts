import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { type AppServer, startAppServer } from "../support/app-server";
import { addStaffSession } from "../support/staff-sessions";
import { openStoreDatabase } from "../support/store-database";

// Who may do what in the console (issue 34), over HTTP against a production server: each role × each console page,
// file and form, plus a request with no session and one with a setup-link session; then a fuzz of every console route
// and endpoint, with and without a session: never a 5xx, never a stack trace.

type Who = "owner" | "admin" | "support" | "setup-link" | "none";
const FUZZ_CONVERSATION = "11111111-1111-4111-8111-111111111111";

let server: AppServer;
let origin: string;
const cookies = {} as Record<Exclude<Who, "none">, string>;

test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  server = await startAppServer({ env: { LOG_LEVEL: "silent" } });
  origin = `http://localhost:${server.port}`;
  const people: Array<[Exclude<Who, "none">, string, "owner" | "admin" | "support"]> = [
    ["owner", "owner@example.com", "owner"],
    ["admin", "admin@example.com", "admin"],
    ["support", "agent@example.com", "support"],
    ["setup-link", "new@example.com", "support"],
  ];
  for (const [who, email, role] of people) {
    const token = addStaffSession(server.dataDir, email, role, {
      beganWith: who === "setup-link" ? "setup-link" : "passkey",
      passkeyId: `cred-${who}`,
    });
    cookies[who] = `kestrel-staff=${token}`;
  }
  // One real conversation, so the fuzz reaches the inbox's forms past the look-up.
  const db = openStoreDatabase(server.dataDir);
  try {
    const at = new Date().toISOString();
    db.prepare(
      "INSERT INTO support_requests (id, category, answers, created_at, delivery_status, next_attempt_at) VALUES (?, 'Key Reset', ?, ?, 'no_channel', ?)",
    ).run("fuzz-request", JSON.stringify(["Kestrel Vault", "why", "fuzz@example.com"]), at, at);
    db.prepare(
      "INSERT INTO support_conversations (id, request_id, category, locale, visitor_email, visitor_active_at, last_message_at, created_at, waiting_since) VALUES (?, 'fuzz-request', 'Key Reset', 'en', 'fuzz@example.com', ?, ?, ?, ?)",
    ).run(FUZZ_CONVERSATION, at, at, at, at);
  } finally {
    db.close();
  }
});
test.afterAll(async () => {
  await server?.stop();
});

function send(
  path: string,
  who: Who,
  init: { method?: string; form?: Record<string, string>; origin?: string | null } = {},
) {
  const headers: Record<string, string> = { accept: "text/html" };
  if (who !== "none") headers.cookie = cookies[who];
  const sameOrigin = init.origin === undefined ? origin : init.origin;
  if (sameOrigin) headers.origin = sameOrigin;
  let body: string | undefined;
  if (init.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  return fetch(`${origin}${path}`, {
    method: init.method ?? (init.form ? "POST" : "GET"),
    headers,
    body,
    redirect: "manual",
  });
}

// 200: let in; 403: signed in without the role; 303: a page without a session (to sign-in) or a setup-link
// session (to setup); 401: a form or file without a session.
const PAGES: Array<{ path: string; expected: Record<Who, number> }> = [
  { path: "/admin", expected: { owner: 200, admin: 200, support: 200, "setup-link": 303, none: 303 } },
  { path: "/admin/account", expected: { owner: 200, admin: 200, support: 200, "setup-link": 303, none: 303 } },
  { path: "/admin/orders", expected: { owner: 200, admin: 200, support: 200, "setup-link": 303, none: 303 } },
  // A query in the URL searches nothing (the search is a POST): the empty form, as for the bare page.
  {
    path: "/admin/orders?q=someone%40example.com",
    expected: { owner: 200, admin: 200, support: 200, "setup-link": 303, none: 303 },
  },
  { path: "/admin/support", expected: { owner: 200, admin: 200, support: 200, "setup-link": 303, none: 303 } },
  {
    path: "/admin/support?state=resolved&scope=mine&q=x",
    expected: { owner: 200, admin: 200, support: 200, "setup-link": 303, none: 303 },
  },
  {
    path: "/admin/support/00000000-0000-4000-8000-000000000000",
    expected: { owner: 404, admin: 404, support: 404, "setup-link": 303, none: 303 },
  },
  { path: "/admin/deliveries", expected: { owner: 200, admin: 200, support: 403, "setup-link": 303, none: 303 } },
  { path: "/admin/status", expected: { owner: 200, admin: 200, support: 403, "setup-link": 303, none: 303 } },
  {
    path: "/admin/support/saved-replies",
    expected: { owner: 200, admin: 200, support: 403, "setup-link": 303, none: 303 },
  },
  { path: "/admin/content", expected: { owner: 200, admin: 200, support: 403, "setup-link": 303, none: 303 } },
  { path: "/admin/releases", expected: { owner: 200, admin: 200, support: 403, "setup-link": 303, none: 303 } },
  { path: "/admin/content/faq/de", expected: { owner: 200, admin: 200, support: 403, "setup-link": 303, none: 303 } },
  {
    path: "/admin/content/legal/terms/ar",
    expected: { owner: 200, admin: 200, support: 403, "setup-link": 303, none: 303 },
  },
  { path: "/admin/content/faq/xx", expected: { owner: 404, admin: 404, support: 403, "setup-link": 303, none: 303 } },
  // The preview is the real page for owners and admins; nobody else can switch it on.
  {
    path: "/admin/content-preview?doc=faq/de",
    expected: { owner: 200, admin: 200, support: 403, "setup-link": 303, none: 303 },
  },
  { path: "/admin/staff", expected: { owner: 200, admin: 403, support: 403, "setup-link": 303, none: 303 } },
  { path: "/admin/audit", expected: { owner: 200, admin: 403, support: 403, "setup-link": 303, none: 303 } },
  { path: "/admin/audit.csv", expected: { owner: 200, admin: 403, support: 403, "setup-link": 403, none: 401 } },
  { path: "/admin/setup", expected: { owner: 200, admin: 200, support: 200, "setup-link": 200, none: 200 } },
  { path: "/admin/sign-in", expected: { owner: 303, admin: 303, support: 303, "setup-link": 200, none: 200 } },
];

const FORMS: Array<{ name: string; path: string; form: Record<string, string>; expected: Record<Who, number> }> = [
  {
    name: "invite",
    path: "/admin/staff",
    form: { intent: "invite", email: "x@example.com", role: "support" },
    expected: { owner: 200, admin: 403, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "change a role",
    path: "/admin/staff",
    form: { intent: "role", email: "agent@example.com", role: "support" },
    expected: { owner: 200, admin: 403, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "end someone's sessions",
    path: "/admin/staff",
    form: { intent: "revoke", email: "nobody@example.com" },
    expected: { owner: 404, admin: 403, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "retry a delivery",
    path: "/admin/deliveries",
    form: { intent: "retry", kind: "mail", id: "no-such-mail" },
    // Nothing failed by that id: a 409 for those let in.
    expected: { owner: 409, admin: 409, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "reply in a conversation that does not exist",
    path: "/admin/support/00000000-0000-4000-8000-000000000000",
    form: { intent: "reply", message: "Hello" },
    expected: { owner: 404, admin: 404, support: 404, "setup-link": 403, none: 401 },
  },
  {
    name: "set a product's status",
    path: "/admin/status",
    // The status it already has: the answer says nothing changed.
    form: { intent: "status", product: "Kestrel Capture", status: "operational" },
    expected: { owner: 200, admin: 200, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "preview an incident",
    path: "/admin/status",
    form: { intent: "preview", title: "Slow", status: "investigating", body: "Slow downloads." },
    expected: { owner: 200, admin: 200, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "post an update on an incident that does not exist",
    path: "/admin/status",
    form: { intent: "update", incident: "999999", status: "monitoring", body: "Watching." },
    expected: { owner: 404, admin: 404, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "yank a release that does not exist",
    path: "/admin/releases",
    form: { intent: "yank", product: "446891", version: "99.0.0" },
    expected: { owner: 404, admin: 404, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "search orders",
    path: "/admin/orders",
    form: { q: "someone@example.com" },
    expected: { owner: 200, admin: 200, support: 200, "setup-link": 403, none: 401 },
  },
  {
    name: "a second page of orders",
    path: "/admin/orders",
    form: { q: "someone@example.com", page: "2" },
    expected: { owner: 200, admin: 200, support: 200, "setup-link": 403, none: 401 },
  },
  {
    name: "search orders for nothing",
    path: "/admin/orders",
    form: { q: "   " },
    expected: { owner: 400, admin: 400, support: 400, "setup-link": 403, none: 401 },
  },
  {
    name: "add a saved reply",
    path: "/admin/support/saved-replies",
    form: { intent: "add", title: "Thanks", body: "Thank you for writing.", locale: "any" },
    // Added: back to the list.
    expected: { owner: 303, admin: 303, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "delete a saved reply that does not exist",
    path: "/admin/support/saved-replies",
    form: { intent: "delete", id: "no-such-reply" },
    expected: { owner: 404, admin: 404, support: 403, "setup-link": 403, none: 401 },
  },
  {
    name: "rename an own passkey",
    path: "/admin/account",
    form: { intent: "rename", passkey: "cred-owner", name: "Desk" },
    // Only the owner's passkey is named here: anyone else's rename is of a passkey that is not theirs.
    expected: { owner: 200, admin: 404, support: 404, "setup-link": 403, none: 401 },
  },
];

for (const page of PAGES)
  test(`GET ${page.path}: each role gets what its role allows`, async () => {
    for (const who of Object.keys(page.expected) as Who[]) {
      const res = await send(page.path, who);
      expect(res.status, `${who} GET ${page.path}`).toBe(page.expected[who]);
      expect(res.headers.get("cache-control"), `${who} GET ${page.path}`).toContain("no-store");
      expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      if (res.status === 303) {
        const to = res.headers.get("location") ?? "";
        expect(to, `${who} GET ${page.path}`).toBe(
          who === "setup-link" ? "/admin/setup" : page.path === "/admin/sign-in" ? "/admin" : "/admin/sign-in",
        );
      }
      if (res.status === 403 && page.path !== "/admin/audit.csv")
        expect(await res.text()).toContain("You do not have access to this page");
      if (page.path === "/admin/audit.csv" && res.status === 200)
        expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    }
  });

for (const form of FORMS)
  test(`POST ${form.path} (${form.name}): each role gets what its role allows`, async () => {
    for (const who of Object.keys(form.expected) as Who[]) {
      const res = await send(form.path, who, { form: form.form });
      expect(res.status, `${who} POST ${form.path} ${form.name}`).toBe(form.expected[who]);
    }
  });

test("a console form from another origin, or none, is refused even for an owner", async () => {
  for (const from of ["https://evil.example", null]) {
    const res = await send("/admin/staff", "owner", {
      form: { intent: "invite", email: "y@example.com", role: "owner" },
      origin: from,
    });
    // React Router turns a foreign Origin away itself (400); without one, the console's own check answers 403.
    expect(res.status, `Origin ${from}`).toBe(from === null ? 403 : 400);
  }
  const db = openStoreDatabase(server.dataDir);
  expect(db.prepare("SELECT count(*) AS n FROM staff WHERE email = 'y@example.com'").get()).toEqual({ n: 0 });
  db.close();
});

test("the passkey endpoints answer only our own origin, and a registration only a session", async () => {
  const json = (path: string, who: Who, from: string | null) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(from ? { origin: from } : {}),
        ...(who === "none" ? {} : { cookie: cookies[who] }),
      },
      body: "{}",
    });
  expect((await json("/api/admin/passkeys/sign-in/options", "none", "https://evil.example")).status).toBe(403);
  const options = await json("/api/admin/passkeys/sign-in/options", "none", origin);
  expect(options.status).toBe(200);
  const { options: body } = (await options.json()) as {
    options: { challenge: string; rpId: string; userVerification: string };
  };
  expect(body.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(body.rpId).toBe("localhost");
  expect(body.userVerification).toBe("required");
  expect((await json("/api/admin/passkeys/register/options", "none", origin)).status).toBe(401);
  const register = await json("/api/admin/passkeys/register/options", "setup-link", origin);
  expect(register.status).toBe(200);
  const { options: creation } = (await register.json()) as {
    options: { authenticatorSelection: { residentKey: string; userVerification: string }; user: { name: string } };
  };
  expect(creation.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
  expect(creation.user.name).toBe("new@example.com");
  const refused = await fetch(`${origin}/api/admin/passkeys/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({
      credential: { id: "x", rawId: "x", type: "public-key", response: { clientDataJSON: "e30" } },
    }),
  });
  expect(refused.status).toBe(401);
});

test("fuzzed requests to every console page, file, form and endpoint never get a 5xx or a stack trace", async () => {
  test.setTimeout(120_000);
  const paths = [
    "/admin",
    "/admin/sign-in",
    "/admin/setup",
    "/admin/account",
    "/admin/staff",
    "/admin/status",
    "/ar/admin/status",
    "/admin/audit",
    "/admin/audit.csv",
    "/admin/orders",
    "/admin/deliveries",
    "/admin/support",
    "/de/admin/support",
    "/admin/support/00000000-0000-4000-8000-000000000000",
    "/admin/support/not-a-conversation",
    `/admin/support/${FUZZ_CONVERSATION}`,
    `/admin/support/${FUZZ_CONVERSATION}`,
    "/admin/support/saved-replies",
    "/pt-br/admin/support/saved-replies",
    "/admin/content",
    "/admin/content/faq/de",
    "/admin/content/legal/terms/de",
    "/admin/content/nothing/de",
    "/admin/content-preview?doc=faq/de",
    "/admin/content-preview?doc=faq/de&path=//evil.example",
    "/admin/sign-out",
    "/admin/language",
    "/admin/nope",
    "/de/admin/staff",
    "/xx/admin",
    "/api/admin/passkeys/sign-in/options",
    "/api/admin/passkeys/sign-in",
    "/api/admin/passkeys/register/options",
    "/api/admin/passkeys/register",
  ];
  const text = fc.string({ maxLength: 60 });
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...paths),
      fc.constantFrom("GET", "POST", "HEAD", "PUT", "DELETE"),
      fc.constantFrom<Who>("owner", "admin", "support", "setup-link", "none"),
      fc.dictionary(
        fc.constantFrom(
          "token",
          "period",
          "page",
          "actor",
          "action",
          "from",
          "to",
          "link",
          "q",
          "x",
          "state",
          "scope",
          "edit",
          "delete",
          "done",
        ),
        text,
        {
          maxKeys: 3,
        },
      ),
      fc.oneof(
        fc
          .dictionary(
            fc.constantFrom(
              "intent",
              "email",
              "role",
              "passkey",
              "name",
              "locale",
              "to",
              "kind",
              "id",
              "product",
              "status",
              "products",
              "incident",
              "title",
              "body",
              "message",
              "q",
              "page",
            ),
            fc.oneof(
              text,
              fc.constantFrom(
                "status",
                "preview",
                "publish",
                "update",
                "Kestrel Vault",
                "outage",
                "resolved",
                "1",
                "reply",
                "note",
                "assign-to-me",
                "resolve",
                "reopen",
                "add",
                "save",
                "delete",
                "any",
                "pt-br",
              ),
            ),
            { maxKeys: 6 },
          )
          .map((form) => ({
            type: "application/x-www-form-urlencoded",
            body: new URLSearchParams(form).toString(),
          })),
        fc.jsonValue().map((v) => ({ type: "application/json", body: JSON.stringify(v) })),
        fc
          .record({
            credential: fc.record({
              id: text,
              rawId: text,
              type: fc.constantFrom("public-key", "x"),
              response: fc.record({ clientDataJSON: text }),
            }),
          })
          .map((v) => ({ type: "application/json", body: JSON.stringify(v) })),
        fc.constant(undefined),
      ),
      fc.boolean(),
      async (path, method, who, query, payload, sameOrigin) => {
        const search = new URLSearchParams(query).toString();
        const headers: Record<string, string> = {
          "x-forwarded-for": `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
        };
        if (who !== "none") headers.cookie = cookies[who];
        if (sameOrigin) headers.origin = origin;
        const withBody = payload !== undefined && !["GET", "HEAD"].includes(method);
        if (withBody) headers["content-type"] = payload.type;
        const res = await fetch(`${origin}${path}${search ? `?${search}` : ""}`, {
          method,
          headers,
          body: withBody ? payload.body : undefined,
          redirect: "manual",
        });
        const body = await res.text();
        expect(res.status, `${method} ${path}?${search} as ${who}: ${body.slice(0, 200)}`).toBeLessThan(500);
        expect(body).not.toMatch(/\n\s+at .+:\d+:\d+/);
      },
    ),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 400), endOnFailure: true },
  );
});

test("the console opens in the browser's language, and the language menu's choice is kept", async () => {
  const german = await fetch(`${origin}/admin/sign-in`, {
    headers: { "accept-language": "de-DE,de;q=0.9" },
    redirect: "manual",
  });
  expect(german.status).toBe(303);
  expect(german.headers.get("location")).toBe("/de/admin/sign-in");
  const page = await (await fetch(`${origin}/de/admin/sign-in`)).text();
  expect(page).toContain('<html lang="de"');
  expect(page).toContain("Bei der Konsole anmelden");
  expect(page).toContain("Mit Passkey anmelden");

  const chosen = await fetch(`${origin}/de/admin/language`, {
    method: "POST",
    headers: { origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ locale: "en", to: "/admin/sign-in" }).toString(),
    redirect: "manual",
  });
  expect(chosen.status).toBe(303);
  expect(chosen.headers.get("location")).toBe("/admin/sign-in");
  const cookie = (chosen.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  expect(cookie).toBe("kestrel-console-language=en");
  const english = await fetch(`${origin}/admin/sign-in`, {
    headers: { "accept-language": "de-DE,de;q=0.9", cookie },
    redirect: "manual",
  });
  expect(english.status).toBe(200);
  expect(await english.text()).toContain("Sign in to the console");
});

test("sign-in is rate limited per client address", async () => {
  const ask = (address: string) =>
    fetch(`${origin}/api/admin/passkeys/sign-in/options`, {
      method: "POST",
      headers: { origin, "x-forwarded-for": address },
    });
  const answers: number[] = [];
  for (let i = 0; i < 31; i++) answers.push((await ask("198.51.100.7")).status);
  expect(answers.slice(0, 30).every((status) => status === 200)).toBe(true);
  expect(answers[30]).toBe(429);
  const limited = await ask("198.51.100.7");
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await limited.json()).toEqual({ error: "Too many sign-in attempts. Please wait a minute." });
  // Another address is not held back.
  expect((await ask("198.51.100.8")).status).toBe(200);
});
