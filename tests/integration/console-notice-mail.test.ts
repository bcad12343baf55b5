// Issue 42, notice mails: an invitation of someone who already has an account and every passkey added or removed is
// mailed to that person through the outbox, saying what changed, when, by whom and what to do if it was not them.
// A real SMTP server on 127.0.0.1, the console's passkey endpoints over real HTTP, both databases.
import type { AddressInfo } from "node:net";
import express from "express";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { accountAction } from "~/features/console/account/account-page.server";
import { staffAction } from "~/features/console/staff/staff-page.server";
import { startMailDelivery } from "~/features/mail/mail.server";
import { createConsoleApi } from "~/features/staff/passkey-api.server";
import { listPasskeys } from "~/features/staff/passkey-store.server";
import { inviteStaff } from "~/features/staff/people.server";
import { createSession } from "~/features/staff/sessions.server";
import { closeDatabase, getDb, initDatabase } from "~/platform/db.server";
import { parseEnv, resetEnvForTests } from "~/platform/env.server";
import { configureLogger } from "~/platform/logger.server";
import { clientAddressContext } from "~/platform/request-context";
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from "../fakes/smtp-receiver";
import { makeDataDir } from "../support/app-server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";
import { SoftAuthenticator } from "../support/soft-authenticator";

const dialects = await testDialects();
const ORIGIN = "http://console.test";
const WHEN = /^When: \d{4}-\d\d-\d\d \d\d:\d\d UTC$/m;

describe.each(dialects)("console notice mail on %s", (dialect) => {
  let database: TestDatabase;
  let receiver: SmtpReceiver;
  let stopMail: () => Promise<void>;
  let base = "";
  let closeApi = () => {};
  let n = 0;
  const db = () => getDb().db;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    receiver = await startSmtpReceiver();
    resetEnvForTests(
      parseEnv({
        DATA_DIR: dialect === "sqlite" ? database.dataDir : makeDataDir("kestrel-notice-mail-"),
        DATABASE_URL: database.url ?? "",
        PUBLIC_URL: ORIGIN,
        SMTP_URL: receiver.url,
        MAIL_FROM: "Kestrel Software <shop@example.com>",
        LOG_LEVEL: "silent",
      }),
    );
    configureLogger();
    await initDatabase(async () => {});
    stopMail = startMailDelivery();
    const app = express();
    app.set("trust proxy", true);
    app.use("/api", createConsoleApi());
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeApi = () => server.close();
  });
  afterAll(async () => {
    closeApi();
    await stopMail();
    await closeDatabase();
    resetEnvForTests(undefined);
    await receiver.close();
    await database.drop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });

  async function received(to: string, count: number): Promise<ReceivedMail[]> {
    let mails: ReceivedMail[] = [];
    await vi.waitFor(
      () => {
        mails = receiver.received.filter((m) => m.rcptTo.includes(to));
        expect(mails).toHaveLength(count);
      },
      { timeout: 20_000 },
    );
    return mails;
  }

  async function post(path: string, token: string, json: unknown = {}) {
    const res = await fetch(`${base}/api/admin/passkeys/${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: ORIGIN,
        cookie: `kestrel-staff=${token}`,
        "x-forwarded-for": `198.51.100.${n}`,
      },
      body: JSON.stringify(json),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  function form(page: string, token: string, fields: Record<string, string>) {
    const request = new Request(`${ORIGIN}${page}`, {
      method: "POST",
      headers: {
        cookie: `kestrel-staff=${token}`,
        origin: ORIGIN,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(fields).toString(),
    });
    const context = new RouterContextProvider();
    context.set(clientAddressContext, "10.0.0.9");
    return { request, context };
  }

  /** A new person who opened their setup link and made their first passkey over HTTP: their passkey session. */
  async function newPerson(role: "owner" | "admin" = "admin") {
    const address = `notice-${++n}@example.com`;
    const { staff } = await inviteStaff(db(), { email: address, role, by: "cli" });
    const setup = await createSession(db(), { staffId: staff.id, beganWith: "setup-link" });
    const laptop = new SoftAuthenticator(ORIGIN);
    const options = await post("register/options", setup);
    const made = await post("register", setup, {
      credential: laptop.register(options.json.options as never),
      name: "Laptop",
      locale: "en",
    });
    if (made.status !== 200) throw new Error(`registration refused: ${JSON.stringify(made.json)}`);
    const [mail] = await received(address, 1);
    receiver.received.length = 0;
    return {
      staff,
      laptop,
      address,
      mail,
      token: await createSession(db(), { staffId: staff.id, beganWith: "passkey" }),
    };
  }

  it("mails the person when a setup link adds their first passkey", async () => {
    const { mail, address } = await newPerson();
    expect(mail?.subject).toBe("Your console account: a passkey was added");
    expect(mail?.text).toContain('The passkey "Laptop" was added to your console account through a setup link.');
    expect(mail?.text).toMatch(WHEN);
    expect(mail?.text).toContain(`By: ${address}`);
    expect(mail?.text).toContain(`If this was not you, sign in at ${ORIGIN}/admin/account, remove that passkey`);
  });

  it("mails a second passkey added after the fresh proof, and a removal, in the page's language", async () => {
    const { staff, laptop, address, token } = await newPerson();
    const request = (await post("confirm/options", token)).json.options as never;
    const confirmed = await post("confirm", token, { credential: laptop.signIn(request) });
    expect(confirmed.status).toBe(200);
    const phone = new SoftAuthenticator(ORIGIN);
    const added = await post("register", token, {
      credential: phone.register(confirmed.json.options as never),
      name: "Telefon",
      locale: "de",
    });
    expect(added.status).toBe(200);
    const [addedMail] = await received(address, 1);
    expect(addedMail?.subject).toBe("Ihr Konsolenkonto: ein Passkey wurde hinzugefügt");
    expect(addedMail?.text).toContain("Der Passkey „Telefon“ wurde Ihrem Konsolenkonto hinzugefügt.");
    expect(addedMail?.text).toMatch(/^Wann: \d{4}-\d\d-\d\d \d\d:\d\d UTC$/m);
    expect(addedMail?.text).toContain(`Von: ${address}`);
    expect(addedMail?.text).toContain(`${ORIGIN}/de/admin/account`);

    receiver.received.length = 0;
    const laptopId = (await listPasskeys(db(), staff.id)).find((p) => p.name === "Laptop")?.id ?? "";
    const { request: removal, context } = form("/es/admin/account", token, { intent: "remove", passkey: laptopId });
    await accountAction(removal, context);
    const [removedMail] = await received(address, 1);
    expect(removedMail?.subject).toBe("Tu cuenta de la consola: se eliminó una passkey");
    expect(removedMail?.text).toContain("Se eliminó la passkey «Laptop» de tu cuenta de la consola.");
    expect(removedMail?.text).toContain(`Por: ${address}`);
    expect(removedMail?.text).toContain("Cerrar sesión en todas partes");
  });

  it("mails an existing person whom an owner invites again, naming the owner; a new person gets no notice", async () => {
    const owner = await newPerson("owner");
    const existing = await newPerson();
    const { request, context } = form("/admin/staff", owner.token, {
      intent: "invite",
      email: existing.address,
      role: "support",
    });
    await staffAction(request, context);
    const [mail] = await received(existing.address, 1);
    expect(mail?.subject).toBe("Your console account: a new setup link was made");
    expect(mail?.text).toContain("Whoever opens it within one hour can add a passkey to your account.");
    expect(mail?.text).toMatch(WHEN);
    expect(mail?.text).toContain(`By: ${owner.address}`);
    expect(mail?.text).toContain("If you did not ask for it, tell an owner of the shop now.");
    // The mail carries no setup link: the owner hands it over, a mailbox never holds it.
    expect(mail?.raw).not.toContain("/admin/setup");

    const fresh = `notice-new-${++n}@example.com`;
    const invited = form("/admin/staff", owner.token, { intent: "invite", email: fresh, role: "support" });
    await staffAction(invited.request, invited.context);
    const queued = await db().selectFrom("mail_outbox").select("kind").where("to_address", "=", fresh).execute();
    expect(queued).toEqual([]);
  });
});
