import { db } from "@sealwork/core/db/service";
import {
  type SignedConversation,
  type SignedMembershipEntry,
  appendToLog,
  commitKey,
  createLog,
  generateSymmetricKey,
  membershipContainer,
  sealSignedConversationKey,
  verifyLog,
} from "@sealwork/crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser } from "../support/browser";
import { encryptedMessage, shareGroup, startConversation } from "../support/conversations";
import { type Recipient, type Signer, lookupOf, recipientOf, signedMessageBody, signer, startSigned } from "../support/signed-conversations";
import { createSession } from "../support/users";
import { type Person, conversationIdOf, conversationPanel, messageBox, messageList, signedIn as signedInAs } from "./conversation-helpers";
import { errorDialogText, gotoApp } from "./helpers";

/**
 * Signed distribution in the browser (issue 11 item 2; docs/protocol.md §14.8). First the flows
 * through the screens: a conversation made with its membership log, a person added who reads the
 * history, one removed (a new epoch: the others see the rekey, the removed person reads nothing
 * new), one who leaves (the author's client renews the key). Then a server that lies, mounted by
 * changing its database under a browser that knows the conversation: a ghost participant in the
 * record, a key copy signed by someone who takes no part, a message re-attributed to another
 * sender, a forked and a rolled-back log. Each is refused with its warning (data-trust-warning,
 * the codes test/malicious can assert) or shown as not verified.
 */
const POLL_WAIT = 25_000;

type Json = Record<string, unknown>;

describe("signed conversations in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const signedIn = (person: Person) => signedInAs(browser, person);
  const personRow = (page: Page, uid: number) => conversationPanel(page).locator(`[data-participant="${uid}"]`);
  const verified = (page: Page, text: string) => messageList(page).locator('[data-message-verified="true"]').getByText(text, { exact: true });

  async function addPerson(page: Page, email: string) {
    await conversationPanel(page).getByRole("button", { name: "Add more people" }).click();
    const dialog = page.getByRole("dialog", { name: "Add people" });
    await dialog.getByLabel("Email or phone").fill(email);
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await dialog.waitFor({ state: "detached", timeout: 30_000 });
  }

  /** Starts a conversation with `email` (and the title, if any) from New Conversation; answers its id. */
  async function startWith(page: Page, email: string, title?: string): Promise<number> {
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "New Conversation" }).click();
    await page.getByLabel("Email or phone").fill(email);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    if (title) await page.getByLabel("Title (optional)").fill(title);
    await page.getByRole("button", { name: "Start conversation" }).click();
    await page.waitForURL(/\/conversation\/\d+$/);
    return conversationIdOf(page);
  }

  async function send(page: Page, text: string) {
    await messageBox(page).fill(text);
    await messageBox(page).press("Enter");
    await verified(page, text).waitFor({ timeout: 30_000 });
  }

  it("creates, adds (who reads the history), removes (a new epoch) and leaves, each signed", { timeout: 300_000 }, async () => {
    const [ann, ben, cem, dan] = await Promise.all(["Ann", "Ben", "Cem", "Dan"].map((name) => createSession({ name })));
    await shareGroup(ann!, ben!, cem!, dan!);
    const [a, b, c, d] = await Promise.all([ann!, ben!, cem!, dan!].map(signedIn));

    // Ann starts it with Ben: its log, record and copies are made and signed in her browser.
    const id = await startWith(a!, ben!.email!, "Signed plans");
    await conversationPanel(a!).locator('[data-protocol="2"][data-key-epoch="0"]').waitFor();
    await send(a!, "Before Cem joined");
    const log = await http<{ entries: { record: Json }[]; epoch: number }>("GET", `/api/conversations/${id}/log`, { token: ann!.api_token });
    expect(log.body.entries.map((e) => e.record.action)).toEqual(["create", "add"]);

    // Ben reads it, signed by Ann.
    await gotoApp(b!, `/conversation/${id}`);
    await verified(b!, "Before Cem joined").waitFor();
    await b!.getByRole("heading", { name: "Signed plans", level: 1 }).waitFor();

    // Ann makes Ben an admin and takes it back, each a signed entry; Ben's browser follows the log.
    const star = (name: string) => personRow(a!, ben!.id).getByRole("button", { name });
    await star("Make Ben an admin").click();
    await star("Remove admin from Ben").click({ timeout: 30_000 });
    await star("Make Ben an admin").waitFor({ timeout: 30_000 });
    const changes = await http<{ entries: { record: Json }[] }>("GET", `/api/conversations/${id}/log`, { token: ben!.api_token });
    expect(changes.body.entries.map((e) => e.record.action)).toEqual(["create", "add", "promote", "demote"]);
    await gotoApp(b!, `/conversation/${id}`);
    await verified(b!, "Before Cem joined").waitFor();
    await conversationPanel(b!).getByText("Cannot add people").waitFor();

    // Ann adds Cem, who reads the history.
    await addPerson(a!, cem!.email!);
    await personRow(a!, cem!.id).waitFor();
    await gotoApp(c!, `/conversation/${id}`);
    await verified(c!, "Before Cem joined").waitFor();
    await send(c!, "Cem was here");

    // Ann removes Cem: the next epoch. Her panel says the key was renewed; Ben's too, once his poll
    // brings her next message; Cem is shut out and nothing new is sealed for him.
    await personRow(a!, cem!.id).getByRole("button", { name: "Remove Cem" }).click();
    await personRow(a!, cem!.id).waitFor({ state: "detached", timeout: 30_000 });
    await conversationPanel(a!).locator('[data-key-epoch="1"]').getByText("The key was renewed once", { exact: false }).waitFor({ timeout: 30_000 });
    await send(a!, "After Cem left");
    await verified(b!, "After Cem left").waitFor({ timeout: POLL_WAIT });
    await conversationPanel(b!).locator('[data-key-epoch="1"]').waitFor();
    const page = await http<{ motes: { epoch: number | null }[] }>("GET", `/api/conversations/${id}`, { token: ann!.api_token });
    expect(page.body.motes.map((m) => m.epoch)).toEqual([0, 0, 1]);
    const cemsCopy = await http<{ code: string }>("GET", `/api/conversations/${id}/log`, { token: cem!.api_token });
    expect(cemsCopy.status).toBe(403);
    await gotoApp(c!, `/conversation/${id}`);
    expect(await errorDialogText(c!)).toContain("You are not authorized to access this conversation or pickup!");

    // Dan, added after the rekey, reads both epochs (the new key carries the old one).
    await addPerson(a!, dan!.email!);
    await gotoApp(d!, `/conversation/${id}`);
    await verified(d!, "Before Cem joined").waitFor();
    await verified(d!, "Cem was here").waitFor();
    await verified(d!, "After Cem left").waitFor();

    // Dan leaves; Ann's client renews the key when she opens the conversation.
    await conversationPanel(d!).getByRole("button", { name: "Leave conversation" }).click();
    await d!.waitForURL(/\/conversation\/list$/);
    const waiting = await http<{ needs_rekey: boolean }>("GET", `/api/conversations/${id}`, { token: ben!.api_token });
    expect(waiting.body.needs_rekey).toBe(true);
    await gotoApp(a!, `/conversation/${id}`);
    await conversationPanel(a!).locator('[data-key-epoch="2"]').waitFor({ timeout: 30_000 });
    await send(a!, "After Dan left");
    await verified(b!, "After Dan left").waitFor({ timeout: POLL_WAIT });
    for (const p of [a!, b!, c!, d!]) await p.context().close();
  });

  it("shows another participant's change in the panel's membership fingerprint when the tab comes back, without a reload", { timeout: 240_000 }, async () => {
    const [ann, ben, cem] = await Promise.all(["Ann", "Ben", "Cem"].map((name) => createSession({ name })));
    await shareGroup(ann!, ben!, cem!);
    const [a, b] = await Promise.all([ann!, ben!].map(signedIn));
    await signedIn(cem!).then((p) => p.context().close());
    const fingerprintOn = (page: Page) => conversationPanel(page).locator("[data-membership-fingerprint]").getAttribute("data-membership-fingerprint", { timeout: 30_000 });
    const bringBack = (page: Page) =>
      page.evaluate(`(() => {
        for (const hidden of [true, false]) {
          Object.defineProperty(document, "visibilityState", { value: hidden ? "hidden" : "visible", configurable: true });
          document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
        }
      })()`);

    const id = await startWith(a!, ben!.email!);
    await send(a!, "Before Cem");
    await gotoApp(b!, `/conversation/${id}`);
    await verified(b!, "Before Cem").waitFor();
    const before = await fingerprintOn(a!);
    expect(await fingerprintOn(b!)).toBe(before);
    await b!.evaluate("window.stayed = true");

    // Ann adds Cem and writes nothing: Ben's poll finds no message, so nothing else refreshes his panel.
    await addPerson(a!, cem!.email!);
    await personRow(a!, cem!.id).waitFor();
    await expect.poll(() => fingerprintOn(a!), { timeout: 30_000 }).not.toBe(before);
    const after = await fingerprintOn(a!);
    await b!.waitForTimeout(6_000);
    await bringBack(b!);
    await expect.poll(() => fingerprintOn(b!), { timeout: 30_000 }).toBe(after);
    expect(await b!.evaluate("window.stayed")).toBe(true);
    for (const p of [a!, b!]) await p.context().close();
  });

  it("follows a promotion in an open panel with the poll alone: no message, no reload, the tab never left", { timeout: 240_000 }, async () => {
    const [ann, ben] = await Promise.all(["Ann", "Ben"].map((name) => createSession({ name })));
    await shareGroup(ann!, ben!);
    const [a, b] = await Promise.all([ann!, ben!].map(signedIn));
    const fingerprintOn = (page: Page) => conversationPanel(page).locator("[data-membership-fingerprint]").getAttribute("data-membership-fingerprint", { timeout: 30_000 });
    const id = await startWith(a!, ben!.email!);
    await send(a!, "Before the promotion");
    await gotoApp(b!, `/conversation/${id}`);
    await verified(b!, "Before the promotion").waitFor();
    await conversationPanel(b!).getByText("Cannot add people").waitFor();
    const before = await fingerprintOn(b!);
    await b!.evaluate("window.stayed = true");

    // Ann makes Ben an admin and writes nothing: his poll sees the log move on, and his panel follows the verified log.
    await personRow(a!, ben!.id).getByRole("button", { name: "Make Ben an admin" }).click();
    await personRow(a!, ben!.id).getByRole("button", { name: "Remove admin from Ben" }).waitFor({ timeout: 30_000 });
    await expect.poll(() => fingerprintOn(b!), { timeout: POLL_WAIT }).not.toBe(before);
    expect(await fingerprintOn(b!)).toBe(await fingerprintOn(a!));
    await conversationPanel(b!).getByRole("button", { name: "Add more people" }).waitFor();
    expect(await b!.evaluate("window.stayed")).toBe(true);
    for (const p of [a!, b!]) await p.context().close();
  });

  it("migrates a conversation from before logs when its author opens it and confirms its people; until then it works as before", { timeout: 240_000 }, async () => {
    // Ben first: the server lists him before Ann (by id), the notice names Ann (herself) first.
    const ben = await createSession({ name: "Ben Old" });
    const ann = await createSession({ name: "Ann Old" });
    await shareGroup(ann!, ben!);
    const [a, b] = await Promise.all([ann!, ben!].map(signedIn));
    // Made as protocol v1 made them: key copies and title not bound to the id, unsigned messages.
    const { id, key } = await startConversation(ann!, [ben!], { realKeys: true, v1: true, title: "From the old days" });
    const payload = await encryptedMessage(key, id, ann!.id, "old-1", "Written long ago");
    expect((await http("POST", `/api/conversations/${id}/append`, { token: ann!.api_token, body: { localid: "old-1", payload } })).status).toBe(200);

    // Ben, no admin of it, reads and writes it as before; it stays as it is.
    await gotoApp(b!, `/conversation/${id}`);
    await b!.getByRole("heading", { name: "From the old days", level: 1 }).waitFor();
    await messageList(b!).getByText("Written long ago").waitFor();
    await messageBox(b!).fill("Still the old way");
    await messageBox(b!).press("Enter");
    await messageList(b!).locator('[data-status="sent"]').getByText("Still the old way").waitFor();
    expect((await http<{ entries: unknown[] }>("GET", `/api/conversations/${id}/log`, { token: ben!.api_token })).body.entries).toEqual([]);

    // Ann, its author, opens it: her client shows its people for her to confirm, signing nothing yet.
    await gotoApp(a!, `/conversation/${id}`);
    const notice = a!.locator("[data-migration]");
    await notice.waitFor({ timeout: 30_000 });
    const people = notice.locator("[data-migration-list] [data-participant]");
    expect(await people.evaluateAll((rows) => rows.map((row) => row.textContent))).toEqual(["Ann Old (you)", "Ben Old"]);
    expect((await http<{ entries: unknown[] }>("GET", `/api/conversations/${id}/log`, { token: ann!.api_token })).body.entries).toEqual([]);
    // "Not now" leaves it as it is for this visit; the next visit asks again.
    await notice.getByRole("button", { name: "Not now" }).click();
    await notice.waitFor({ state: "detached" });
    await gotoApp(a!, `/conversation/${id}`);
    // She confirms: her client gives it its log, record and signed copies.
    await notice.getByRole("button", { name: "Sign with these people" }).click();
    await notice.waitFor({ state: "detached", timeout: 30_000 });
    await conversationPanel(a!).locator('[data-protocol="2"]').waitFor({ timeout: 30_000 });
    await a!.getByRole("heading", { name: "From the old days", level: 1 }).waitFor();
    const log = await http<{ entries: { record: Json }[]; epoch: number }>("GET", `/api/conversations/${id}/log`, { token: ann!.api_token });
    expect(log.body.entries.map((e) => e.record.action)).toEqual(["create", "add"]);
    // The messages from before say they are not signed; new ones are.
    const old = messageList(a!).locator('[data-message-verified="unsigned"]');
    await old.getByText("Written long ago").waitFor();
    await old.getByText("Still the old way").waitFor();
    await send(a!, "Signed from now on");

    // Ben's next visit reads it as a v2 conversation.
    await gotoApp(b!, `/conversation/${id}`);
    await verified(b!, "Signed from now on").waitFor();
    await messageList(b!).locator('[data-message-verified="unsigned"]').getByText("Written long ago").waitFor();
    await send(b!, "Signed by Ben");
    for (const p of [a!, b!]) await p.context().close();
  });

  describe("a server that lies", () => {
    let ann: Signer;
    let mal: Signer;
    let benPerson: Person;
    let ben: Recipient;
    let b: Page;
    let id: number;
    let entries: SignedMembershipEntry[];
    let record: SignedConversation;
    let moteId: number;

    beforeAll(async () => {
      const [annSession, benSession, malSession] = await Promise.all(["Ann Signer", "Ben Reader", "Mal Outsider"].map((name) => createSession({ name })));
      await shareGroup(annSession!, benSession!, malSession!);
      benPerson = benSession!;
      // Ben's browser makes his key; Ann and Mal sign with keys this test holds (v1 keys, pinned on first use).
      b = await signedIn(benPerson);
      [ann, mal] = await Promise.all([signer(annSession!, { register: true }), signer(malSession!, { register: true })]);
      ben = await recipientOf(benSession!, annSession!);
      const state = await startSigned(ann, [ben], { title: "Watched closely" });
      id = state.id;
      entries = state.entries;
      const appended = await http<{ mote: { id: number } }>("POST", `/api/conversations/${id}/append`, { token: ann.session.api_token, body: await signedMessageBody(state, ann, "ann-1", "Hello from Ann") });
      moteId = appended.body.mote.id;
      record = (await http<{ epochs: { record: SignedConversation }[] }>("GET", `/api/conversations/${id}/log`, { token: ann.session.api_token })).body.epochs[0]!.record;
      // Ben's browser sees it once, as it is, and remembers the log's head.
      await gotoApp(b, `/conversation/${id}`);
      await verified(b, "Hello from Ann").waitFor({ timeout: 30_000 });
    }, 240_000);
    afterAll(async () => {
      await b?.context().close();
    });

    const warning = (reason: string) => b.locator(`[role="alert"][data-trust-warning="${reason}"]`);

    async function refused(reason: string, text: string) {
      await gotoApp(b, `/conversation/${id}`);
      await warning(reason).waitFor({ timeout: 30_000 });
      expect(await warning(reason).textContent()).toContain(text);
      // Nothing of the conversation is shown or sent.
      expect(await messageList(b).count()).toBe(0);
    }

    it("a message re-attributed to another sender shows as not verified, never as theirs", { timeout: 120_000 }, async () => {
      await db().entities.mote.patch({ conversationId: id, id: moteId }).set({ sourceId: benPerson.id }).go();
      try {
        await gotoApp(b, `/conversation/${id}`);
        const shown = messageList(b).locator(`[data-message="${moteId}"]`);
        await shown.locator("[data-message-unverified]").waitFor({ timeout: 30_000 });
        expect(await shown.getAttribute("data-message-verified")).toBe("false");
        expect(await shown.textContent()).toContain("Unverified sender");
        expect(await shown.textContent()).not.toContain("Hello from Ann");
        expect(await shown.textContent()).not.toContain("Ben Reader");
      } finally {
        await db().entities.mote.patch({ conversationId: id, id: moteId }).set({ sourceId: ann.session.id }).go();
      }
    });

    it("a ghost participant in the record is refused", { timeout: 120_000 }, async () => {
      const ghost = structuredClone(record);
      ghost.record.participants = [...ghost.record.participants, { userId: mal.key.userId, keyId: mal.key.keyId }].sort((x, y) => x.userId - y.userId);
      await db().entities.conversationepoch.patch({ conversationId: id, epoch: 0 }).set({ record: JSON.stringify(ghost) }).go();
      try {
        await refused("ghost_participant", "names someone who is not a member");
      } finally {
        await db().entities.conversationepoch.patch({ conversationId: id, epoch: 0 }).set({ record: JSON.stringify(record) }).go();
      }
    });

    it("a key copy injected by someone who takes no part is refused", { timeout: 120_000 }, async () => {
      // Mal seals a key he knows for Ben and signs the copy (against a record he made up that names
      // him and commits to his key: what the copy's signature covers is the same).
      const { data: original } = await db().entities.participant.get({ conversationId: id, userId: benPerson.id }).go();
      const malsKey = await generateSymmetricKey();
      const made = {
        ...record.record,
        participants: [...record.record.participants, { userId: mal.key.userId, keyId: mal.key.keyId }].sort((x, y) => x.userId - y.userId),
        keyCommitment: await commitKey(malsKey, { conversationId: id, epoch: 0 }),
      };
      const injected = await sealSignedConversationKey(malsKey, made, ben.key, mal.me);
      await db().entities.participant.patch({ conversationId: id, userId: benPerson.id }).set({ copy: JSON.stringify(injected), sealedKey: injected.sealed }).go();
      try {
        await refused("copy_invalid", "was not handed out by one of its participants");
      } finally {
        await db().entities.participant.patch({ conversationId: id, userId: benPerson.id }).set({ copy: original!.copy!, sealedKey: original!.sealedKey }).go();
      }
    });

    it("a forked log and a rolled-back log are refused by a browser that remembers the head", { timeout: 180_000 }, async () => {
      const container = membershipContainer("conversation", id);
      const keysOf = lookupOf([ann, ben, mal]);
      // Another history Ann could have signed: Mal added instead of Ben (shown to someone else).
      const other = [await createLog(container, ann.me, Date.now())];
      other.push(await appendToLog(await verifyLog(container, other, keysOf), { action: "add", subject: { userId: mal.key.userId, keyId: mal.key.keyId }, at: Date.now() }, ann.me));
      const set = (list: SignedMembershipEntry[]) => db().entities.logentries.patch({ conversationId: id, first: 0 }).set({ entries: JSON.stringify(list), count: list.length }).go();
      try {
        await set(other);
        await refused("log_fork", "not the one this browser verified before");
        await set(entries.slice(0, 1));
        await refused("log_fork", "or an older one");
      } finally {
        await set(entries);
      }
      // Put back, it opens again.
      await gotoApp(b, `/conversation/${id}`);
      await verified(b, "Hello from Ann").waitFor({ timeout: 30_000 });
    });
  });
});
