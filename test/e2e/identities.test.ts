import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { IdentityEntity } from "@sealwork/core/identity/entities";
import { accountFingerprint, createRootIdentity, generateAccountKeys } from "@sealwork/crypto";
import { Service } from "electrodb";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, login, mailedCodes, outboxFor, useRuntime } from "../support/api";
import { legacyMember, registerInvitee } from "../support/identities";
import { newInviteBody } from "../support/invites";
import { BROWSER_SECURE_CODE, newKeyBody, registerKey } from "../support/keys";
import { launchBrowser, newVisitor } from "../support/browser";
import { spawnRuntime, type SpawnedRuntime } from "../support/runtime";
import { conversationIdOf, conversationPanel, messageBox, messageList } from "./conversation-helpers";
import { errorDialogText, gotoApp, keyPopupState, passKeyPopup, signIn, storedSession, untilKeyPopupCloses } from "./helpers";

/**
 * Protocol v2's identities in the browser (issue 11, items 1 and 4), on an instance of their own:
 * the setup administrator's first key is the instance's root; their Invite screen signs the
 * invitation; the invitee takes it over with fresh keys certified by the temporary key; the two
 * talk, compare safety numbers and mark each other verified, kept in their encrypted pins (which
 * a second browser has); and a key the server changes is refused with the warning.
 */

const ADMIN = { name: "Root Rita", email: "rita@example.ch", password: "rita-password-1" };
const BOB = { name: "Bob Invited", email: "bob@example.ch", password: "bob-password-12", code: "bobs-own-code-7" };
const POLL_WAIT = 25_000;

type Json = Record<string, unknown>;

describe("authenticated identities in the browser", () => {
  let browser: Browser;
  let runtime: SpawnedRuntime;
  let adminToken: string;
  let bobId: number;
  let conversationId: number;

  beforeAll(async () => {
    [browser, runtime] = await Promise.all([launchBrowser(), spawnRuntime()]);
    useRuntime(runtime.url);
  });
  afterAll(async () => {
    useRuntime(undefined);
    await browser?.close();
    await runtime?.stop();
  });

  /** The person's row in the open conversation's panel. */
  const personRow = (page: Page, uid: number) => conversationPanel(page).locator(`[data-participant="${uid}"]`);

  /** Registers an invited account in the browser and takes the invitation over with the code and a secure code of its own. */
  async function acceptInvitation(page: Page, person: { name: string; email: string; password: string; code: string }, invitationCode: string) {
    await page.goto("/login");
    await page.getByRole("radio", { name: "Email" }).check();
    await page.getByLabel("Email address").fill(person.email);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("Create your account").waitFor();
    await outboxFor(person.email);
    const [vericode] = await mailedCodes(person.email, /verification code is (\d{6})/);
    await page.getByLabel("Name", { exact: true }).fill(person.name);
    await page.getByLabel("Password", { exact: true }).fill(person.password);
    await page.getByLabel("Password verification").fill(person.password);
    await page.getByLabel("Verification code").fill(vericode!);
    await page.getByRole("button", { name: "Register" }).click();
    expect(await keyPopupState(page, ["temp", "fresh", "error"])).toBe("temp");
    const session = (await storedSession(page))!;
    const tempKey = (await http<{ keypair: { id: number; sign_public: string } }>("GET", "/api/keypairs", { token: session.api_token })).body.keypair;
    const dialog = page.getByRole("dialog", { name: "Secure key" });
    await dialog.getByLabel("Invitation code").fill(invitationCode);
    await dialog.getByRole("button", { name: "Continue" }).click();
    await dialog.getByRole("heading", { name: "Choose your secure code" }).waitFor({ timeout: 30_000 });
    await dialog.getByLabel("Secure code", { exact: true }).fill(person.code);
    await dialog.getByLabel("Repeat secure code").fill(person.code);
    await dialog.getByRole("button", { name: "Save my key" }).click();
    await untilKeyPopupCloses(page);
    await page.getByRole("heading", { name: `Hello, ${person.name}!` }).waitFor();
    return { session, tempKey };
  }

  /** The Invite screen: the address (and the administrator role), then the code it shows. */
  async function inviteFrom(page: Page, email: string, options: { admin?: boolean } = {}): Promise<string> {
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Invite" }).click();
    await page.getByLabel("Email address").fill(email);
    if (options.admin) await page.getByLabel("Administrator", { exact: true }).check();
    await page.getByRole("button", { name: "Send invite" }).click();
    await page.locator('[data-invite-state="created"]').waitFor({ timeout: 30_000 });
    return ((await page.locator("[data-invitation-code]").textContent()) ?? "").trim();
  }

  async function safetyNumberOf(page: Page, uid: number, name: string): Promise<string> {
    await personRow(page, uid).getByRole("button", { name: `Safety number of ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Safety number with ${name}` });
    const number = dialog.locator("[data-safety-number]");
    await number.waitFor({ timeout: 30_000 });
    return (await number.getAttribute("data-safety-number"))!;
  }

  it("setup → root; a signed invitation; takeover with fresh keys; a conversation with verified keys on both sides", { timeout: 300_000 }, async () => {
    // The first administrator, from the setup link: their first key comes with the root identity.
    const admin = await newVisitor(browser);
    await admin.page.goto(runtime.setupUrl!.replace(/^http:\/\/localhost:\d+/, runtime.url));
    await admin.page.getByLabel("Name").fill(ADMIN.name);
    await admin.page.getByLabel("Email address").fill(ADMIN.email);
    await admin.page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
    await admin.page.getByLabel("Password confirmation").fill(ADMIN.password);
    await admin.page.getByRole("button", { name: "Create administrator" }).click();
    await passKeyPopup(admin.page);
    await admin.page.getByRole("heading", { name: `Hello, ${ADMIN.name}!` }).waitFor();
    adminToken = (await storedSession(admin.page))!.api_token;
    const anchors = await http<{ roots: { record: Json }[]; setup_user_id: number }>("GET", "/api/identities/anchors", { token: adminToken });
    expect(anchors.body.roots).toHaveLength(1);
    expect(anchors.body.roots[0]!.record).toMatchObject({ userId: anchors.body.setup_user_id, seq: 0, email: ADMIN.email, certifiedBy: { kind: "root" } });

    // The Invite screen signs the invitation with the administrator's identity key.
    const code = await inviteFrom(admin.page, BOB.email);

    // Bob registers and opens the invitation with the code; his browser makes fresh keys.
    const bob = await newVisitor(browser);
    const { session: bobSession, tempKey } = await acceptInvitation(bob.page, BOB, code);
    bobId = bobSession.id;

    // On the server: Bob's birth record is certified by the signed invitation, with keys that are
    // not the temporary ones; the temporary key and its transit envelope are gone.
    const bundle = await http<{ chain: { records: { record: Json & { certifiedBy: { kind: string; invitation: { record: Json } } } }[]; issuers: { userId: number }[] } }>(
      "GET",
      `/api/identities/${bobId}`,
      { token: adminToken },
    );
    const birth = bundle.body.chain.records[0]!.record;
    expect(birth).toMatchObject({ userId: bobId, seq: 0, email: BOB.email, certifiedBy: { kind: "invitation" } });
    expect(birth.certifiedBy.invitation.record).toMatchObject({ email: BOB.email, issuerUserId: anchors.body.setup_user_id, tempSignPublic: tempKey.sign_public });
    expect(birth.signPublic).not.toBe(tempKey.sign_public);
    expect(bundle.body.chain.issuers.map((i) => i.userId)).toEqual([anchors.body.setup_user_id]);
    expect((await http("GET", `/api/keypairs/${tempKey.id}`, { token: bobSession.api_token })).status).toBe(404);
    expect((await http("POST", `/api/keypairs/${tempKey.id}/recover`, { token: bobSession.api_token })).status).toBe(404);

    // Rita starts a conversation with Bob, sealed for his verified key.
    await admin.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "New Conversation" }).click();
    await admin.page.getByLabel("Email or phone").fill(BOB.email);
    await admin.page.getByRole("button", { name: "Add", exact: true }).click();
    await admin.page.getByLabel("Title (optional)").fill("Certified hello");
    await admin.page.getByRole("button", { name: "Start conversation" }).click();
    await admin.page.waitForURL(/\/conversation\/\d+$/);
    conversationId = conversationIdOf(admin.page);
    await messageBox(admin.page).fill("Hello Bob, this is Rita");
    await messageBox(admin.page).press("Enter");
    await messageList(admin.page).locator('[data-status="sent"]').getByText("Hello Bob, this is Rita").waitFor();

    await gotoApp(bob.page, `/conversation/${conversationId}`, BOB.code);
    await messageList(bob.page).getByText("Hello Bob, this is Rita").waitFor();
    const ritaId = anchors.body.setup_user_id;
    // Both are certified (no "not certified" mark), nobody is verified yet.
    await personRow(admin.page, bobId).getByRole("button", { name: `Safety number of ${BOB.name}` }).waitFor();
    expect(await personRow(admin.page, bobId).locator("[data-trust]").count()).toBe(0);

    // The safety numbers are the same on both sides; each marks the other verified.
    const seenByRita = await safetyNumberOf(admin.page, bobId, BOB.name);
    const seenByBob = await safetyNumberOf(bob.page, ritaId, ADMIN.name);
    expect(seenByRita).toMatch(/^(\d{5} ){11}\d{5}$/);
    expect(seenByBob).toBe(seenByRita);
    for (const [page, name, uid] of [
      [admin.page, BOB.name, bobId],
      [bob.page, ADMIN.name, ritaId],
    ] as const) {
      const modal = page.getByRole("dialog", { name: `Safety number with ${name}` });
      await modal.getByText("This person's key is certified", { exact: false }).waitFor();
      await modal.getByRole("button", { name: "Mark as verified" }).click();
      await modal.getByRole("button", { name: "Mark as not verified" }).waitFor();
      await modal.locator('[data-verified="true"]').waitFor();
      await page.keyboard.press("Escape");
      await personRow(page, uid).locator('[data-trust="verified"]').waitFor();
    }
    await messageBox(bob.page).fill("Hi Rita, verified");
    await messageBox(bob.page).press("Enter");
    await messageList(admin.page).getByText("Hi Rita, verified").waitFor({ timeout: POLL_WAIT });

    // The pins are on the server only as ciphertext.
    const pins = await http<{ data: string; rev: number }>("GET", "/api/identities/pins", { token: adminToken });
    expect(pins.body.rev).toBeGreaterThan(0);
    expect(pins.body.data).not.toContain(String(birth.signPublic));
    expect(JSON.parse(pins.body.data)).toMatchObject({ kind: "aead" });
    await bob.context.close();
    await admin.context.close();
  });

  it("a second browser of the same user has the pins: the verified mark shows there too", { timeout: 180_000 }, async () => {
    const second = await newVisitor(browser);
    await signIn(second.page, ADMIN.email, ADMIN.password, null);
    expect(await keyPopupState(second.page, ["missing", "unlock", "fresh", "error"])).toBe("missing");
    await passKeyPopup(second.page);
    await gotoApp(second.page, `/conversation/${conversationId}`);
    await messageList(second.page).getByText("Hi Rita, verified").waitFor();
    await personRow(second.page, bobId).locator('[data-trust="verified"]').waitFor({ timeout: 30_000 });
    await second.context.close();
  });

  it("an invited administrator, certified on the Administration page, signs invitations that verify", { timeout: 240_000 }, async () => {
    const CAROL = { name: "Carol Admin", email: "carol@example.ch", password: "carol-password-1", code: "carols-own-code-3" };
    const rita = await newVisitor(browser);
    await signIn(rita.page, ADMIN.email, ADMIN.password);
    const code = await inviteFrom(rita.page, CAROL.email, { admin: true });
    const carol = await newVisitor(browser);
    const { session } = await acceptInvitation(carol.page, CAROL, code);
    const bundleOf = (uid: number) => http<{ chain: { admins: { record: Json }[] } }>("GET", `/api/identities/${uid}`, { token: adminToken });
    expect((await bundleOf(session.id)).body.chain.admins).toEqual([]);

    // Rita certifies her; the offer goes.
    await rita.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).click();
    const certify = rita.page.getByRole("button", { name: `Certify ${CAROL.name} as administrator` });
    await certify.click();
    await certify.waitFor({ state: "detached", timeout: 30_000 });
    const admins = (await bundleOf(session.id)).body.chain.admins;
    expect(admins.map((a) => a.record)).toEqual([expect.objectContaining({ userId: session.id, issuerUserId: 1 })]);

    // Carol's invitation is signed by her; the invitee's chain runs through her to the root.
    const daveEmail = "dave@example.ch";
    await inviteFrom(carol.page, daveEmail);
    const invites = await http<{ invites: { user_id: number; email: string }[] }>("GET", "/api/instance/invites", { token: adminToken });
    const dave = invites.body.invites.find((i) => i.email === daveEmail)!;
    const daveSession = await registerInvitee(dave.user_id, daveEmail, "dave-password-1");
    const pending = await http<{ invitation: { record: Json } }>("GET", "/api/identities/invitation", { token: daveSession.api_token });
    expect(pending.body.invitation.record).toMatchObject({ email: daveEmail, issuerUserId: session.id });
    await rita.context.close();
    await carol.context.close();
  });

  it("refuses a key the server changed: the warning, no sending, no sealing for them", { timeout: 180_000 }, async () => {
    // The server (here: its database) swaps Bob's identity for a record of another key with a
    // valid self-signature, a root of its own making.
    const { env } = runtime;
    const client = new DynamoDBClient({ region: env.AWS_REGION, endpoint: env.DYNAMODB_ENDPOINT, credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! } });
    const table = new Service({ identity: IdentityEntity }, { table: env.TABLE_NAME, client });
    const forged = await createRootIdentity({ userId: bobId, email: BOB.email, created: Date.now() }, await generateAccountKeys());
    await table.entities.identity.patch({ userId: bobId, seq: 0 }).set({ record: JSON.stringify(forged), certifiedBy: "root" }).go();

    const admin = await newVisitor(browser);
    await signIn(admin.page, ADMIN.email, ADMIN.password);
    await gotoApp(admin.page, `/conversation/${conversationId}`);
    const warning = admin.page.locator('[role="alert"][data-trust-warning="untrusted_key"]');
    await warning.waitFor({ timeout: 30_000 });
    expect(await warning.textContent()).toContain(`Messages to ${BOB.name} are blocked.`);
    expect(await warning.textContent()).toContain("this person's key has changed");
    expect(await messageBox(admin.page).isDisabled()).toBe(true);
    await personRow(admin.page, bobId).locator('[data-trust="changed"]').waitFor();

    // Starting another conversation with Bob: nothing is sealed for the changed key.
    await admin.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "New Conversation" }).click();
    await admin.page.getByLabel("Email or phone").fill(BOB.email);
    await admin.page.getByRole("button", { name: "Add", exact: true }).click();
    await admin.page.getByRole("button", { name: "Start conversation" }).click();
    const error = admin.page.getByRole("dialog", { name: "Error" });
    await error.getByText("this person's key has changed", { exact: false }).waitFor({ timeout: 30_000 });
    expect(admin.page.url()).not.toMatch(/\/conversation\/\d+$/);
    await admin.context.close();
  });
});

describe("the migration of protocol v1 accounts", () => {
  const OLD_ADMIN = { name: "Old Admin", email: "old.admin@example.ch", password: "old-admin-pw-1" };
  let browser: Browser;
  let runtime: SpawnedRuntime;
  // The v1 member of the first test, and the administrator's conversation with her.
  let veraId: number;
  let veraEmail: string;
  let veraConversation: number;
  beforeAll(async () => {
    [browser, runtime] = await Promise.all([
      launchBrowser(),
      spawnRuntime({ env: { ADMIN_EMAIL: OLD_ADMIN.email, ADMIN_PASSWORD: OLD_ADMIN.password, ADMIN_NAME: OLD_ADMIN.name } }),
    ]);
    useRuntime(runtime.url);
  });
  afterAll(async () => {
    useRuntime(undefined);
    await browser?.close();
    await runtime?.stop();
  });

  it("the setup administrator's v1 key becomes the root at their next login; a v1 member is a contact 'not certified'", { timeout: 240_000 }, async () => {
    // Data as protocol v1 left it: the administrator's key without an identity, a member invited
    // without a signed invitation whose key has none either.
    const admin = await login(1, OLD_ADMIN.password);
    const adminKey = await registerKey(admin, null, BROWSER_SECURE_CODE);
    const legacyInvite = await newInviteBody({ email: "vera.v1@example.ch" });
    const made = await http<{ account: { id: number }; keypair: { id: number } }>("POST", "/api/instance/invite", { token: admin.api_token, body: legacyInvite.body });
    expect(made.status).toBe(200);
    const vera = await registerInvitee(made.body.account.id, legacyInvite.body.email, "vera-password-1");
    const veraKey = await newKeyBody(vera.id, made.body.keypair.id, { code: BROWSER_SECURE_CODE });
    expect((await http("POST", "/api/keypairs", { token: vera.api_token, body: veraKey.body })).status).toBe(200);
    expect((await http<{ roots: unknown[] }>("GET", "/api/identities/anchors", { token: admin.api_token })).body.roots).toEqual([]);

    // The administrator signs in: their client publishes a root for the key they have.
    const a = await newVisitor(browser);
    await signIn(a.page, OLD_ADMIN.email, OLD_ADMIN.password);
    await a.page.getByRole("heading", { name: `Hello, ${OLD_ADMIN.name}!` }).waitFor();
    const roots = (await http<{ roots: { record: Json }[] }>("GET", "/api/identities/anchors", { token: admin.api_token })).body.roots;
    expect(roots).toHaveLength(1);
    const keypair = (await http<{ sign_public: string }>("GET", `/api/keypairs/${adminKey}`, { token: admin.api_token })).body;
    expect(roots[0]!.record).toMatchObject({ userId: 1, seq: 0, signPublic: keypair.sign_public, certifiedBy: { kind: "root" } });
    // Right after publishing the root, their browser offers to certify the keys from version 1 (Vera's), and leads to the panel.
    const offer = a.page.getByRole("dialog", { name: "Keys from version 1 to certify" });
    await offer.getByText("1 account still has a key from version 1", { exact: false }).waitFor({ timeout: 30_000 });
    await offer.getByRole("button", { name: "Go to certification" }).click();
    await a.page.waitForURL(/\/instanceadmin\/\?certify=1$/);
    await a.page.locator(`[data-legacy-account="${vera.id}"]`).getByRole("button", { name: "Certify the key of Invited Person" }).waitFor({ timeout: 30_000 });
    expect(await offer.count()).toBe(0);

    // A conversation with the v1 member: sealed for her key pinned on first use, marked "not certified".
    await a.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "New Conversation" }).click();
    await a.page.getByLabel("Email or phone").fill(legacyInvite.body.email);
    await a.page.getByRole("button", { name: "Add", exact: true }).click();
    await a.page.getByRole("button", { name: "Start conversation" }).click();
    await a.page.waitForURL(/\/conversation\/\d+$/);
    const id = conversationIdOf(a.page);
    [veraId, veraEmail, veraConversation] = [vera.id, legacyInvite.body.email, id];
    await messageBox(a.page).fill("Still readable after the update");
    await messageBox(a.page).press("Enter");
    await messageList(a.page).locator('[data-status="sent"]').getByText("Still readable after the update").waitFor();
    await conversationPanel(a.page).locator(`[data-participant="${vera.id}"] [data-trust="legacy"]`).getByText("not certified").waitFor();

    // She reads it; the administrator is certified now (no mark beside the name).
    const v = await newVisitor(browser);
    await signIn(v.page, legacyInvite.body.email, "vera-password-1");
    await gotoApp(v.page, `/conversation/${id}`);
    await messageList(v.page).getByText("Still readable after the update").waitFor();
    await conversationPanel(v.page).locator('[data-participant="1"]').getByRole("button", { name: `Safety number of ${OLD_ADMIN.name}` }).waitFor();
    expect(await conversationPanel(v.page).locator('[data-participant="1"] [data-trust]').count()).toBe(0);
    await a.context.close();
    await v.context.close();
  });

  it("Administration certifies version 1 keys; another member then sees them certified; the root's rule then refuses an uncertified one", { timeout: 300_000 }, async () => {
    const admin = await login(1, OLD_ADMIN.password);
    const walt = await legacyMember({ session: admin }, "walt.v1@example.ch", "walt-password-1", BROWSER_SECURE_CODE);
    const group = (...members: number[]) => http("POST", "/api/groups", { token: admin.api_token, body: { name: "Version 1 people", members } });
    expect((await group(walt.session.id, veraId)).status).toBe(200);
    const veraKey = (await http<{ legacy: { encrypt_public: string; sign_public: string } }>("GET", `/api/identities/${veraId}`, { token: admin.api_token })).body.legacy;

    // The administrator sees both keys from version 1 with their fingerprints, and certifies Vera's.
    const a = await newVisitor(browser);
    await signIn(a.page, OLD_ADMIN.email, OLD_ADMIN.password);
    await a.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).click();
    await a.page.getByRole("button", { name: "Look for keys from version 1" }).click();
    const veraRow = a.page.locator(`[data-legacy-account="${veraId}"]`);
    await veraRow.waitFor({ timeout: 30_000 });
    expect(await veraRow.locator("[data-fingerprint]").textContent()).toBe(await accountFingerprint({ encryptPublic: veraKey.encrypt_public, signPublic: veraKey.sign_public }));
    await a.page.locator(`[data-legacy-account="${walt.session.id}"]`).waitFor();
    await a.page.getByText("Certify all trusts the keys the server shows now", { exact: false }).waitFor();
    await veraRow.getByRole("button", { name: "Certify the key of Invited Person" }).click();
    await veraRow.waitFor({ state: "detached", timeout: 30_000 });
    const certified = await http<{ legacy: { certificate: { record: Json } | null } }>("GET", `/api/identities/${veraId}`, { token: admin.api_token });
    expect(certified.body.legacy.certificate?.record).toMatchObject({ type: "legacy-key", userId: veraId, issuerUserId: 1 });
    // One left: the rule waits for it.
    expect((await http<{ legacy_rule: unknown }>("GET", "/api/identities/anchors", { token: admin.api_token })).body.legacy_rule).toBeNull();

    // Walt, who has never met Vera, sees her key as certified: no "not certified" mark.
    const w = await newVisitor(browser);
    await signIn(w.page, walt.email, "walt-password-1");
    await w.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "New Conversation" }).click();
    await w.page.getByLabel("Email or phone").fill(veraEmail);
    await w.page.getByRole("button", { name: "Add", exact: true }).click();
    await w.page.getByRole("button", { name: "Start conversation" }).click();
    await w.page.waitForURL(/\/conversation\/\d+$/, { timeout: 30_000 });
    const veraInPanel = conversationPanel(w.page).locator(`[data-participant="${veraId}"]`);
    await veraInPanel.getByRole("button", { name: "Safety number of Invited Person" }).waitFor({ timeout: 30_000 });
    expect(await veraInPanel.locator("[data-trust]").count()).toBe(0);
    // The administrator, who had pinned her on first use, sees her certified too (the same key).
    await gotoApp(a.page, `/conversation/${veraConversation}`);
    const veraForAdmin = conversationPanel(a.page).locator(`[data-participant="${veraId}"]`);
    await veraForAdmin.getByRole("button", { name: "Safety number of Invited Person" }).waitFor({ timeout: 30_000 });
    expect(await veraForAdmin.locator("[data-trust]").count()).toBe(0);

    // Certify all (Walt's, the last one): the root publishes the rule.
    await a.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).click();
    await a.page.getByRole("button", { name: "Look for keys from version 1" }).click();
    await a.page.getByRole("button", { name: "Certify all (1 key)" }).click();
    await a.page.locator('[data-legacy-state="done"]').getByText("this instance requires certificates for them").waitFor({ timeout: 30_000 });
    const anchors = await http<{ legacy_rule: { record: Json } | null }>("GET", "/api/identities/anchors", { token: admin.api_token });
    expect(anchors.body.legacy_rule?.record).toMatchObject({ type: "legacy-rule", rule: "certified-only", userId: 1 });

    // A key from version 1 nobody certified, met for the first time after the rule: refused, nothing created.
    const xena = await legacyMember({ session: admin }, "xena.v1@example.ch", "xena-password-1", BROWSER_SECURE_CODE);
    expect((await group(walt.session.id, xena.session.id)).status).toBe(200);
    const again = await newVisitor(browser);
    await signIn(again.page, walt.email, "walt-password-1");
    await again.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "New Conversation" }).click();
    await again.page.getByLabel("Email or phone").fill(xena.email);
    await again.page.getByRole("button", { name: "Add", exact: true }).click();
    await again.page.getByRole("button", { name: "Start conversation" }).click();
    expect(await errorDialogText(again.page)).toContain("this person's key is from version 1 and no administrator has certified it");
    expect(again.page.url()).not.toMatch(/\/conversation\/\d+$/);
    await Promise.all([a.context.close(), w.context.close(), again.context.close()]);
  });
});
