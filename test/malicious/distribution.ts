import {
  type SignedMembershipEntry,
  type SignedSealedKey,
  accountPublicKeys,
  appendToLog,
  createConversationRecord,
  generateSymmetricKey,
  membershipContainer,
  openConversationKey,
  openMessage,
  sealConversationKey,
  sealMessage,
  verifyLog,
} from "@sealwork/crypto";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { http } from "../support/api";
import { shareGroup, startConversation } from "../support/conversations";
import { type Member, invitedMember, rootAdmin } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { gotoApp } from "../e2e/helpers";
import { conversationPanel, messageBox } from "../e2e/conversation-helpers";
import type { MaliciousSuite, Run } from "./harness";
import { addPerson, aliceAndBob, conversationWith, keysOfMembers, messageList, noTrustWarning, openedBy, personRow, send, sentCopies, signInAs, trustWarning } from "./scenes";

/** The membership fingerprint a conversation's panel shows (12 digits in groups of four), once its log verified. */
async function fingerprintOn(page: Page): Promise<string> {
  const shown = conversationPanel(page).locator("[data-membership-fingerprint]");
  await shown.waitFor({ timeout: 30_000 });
  const value = (await shown.getAttribute("data-membership-fingerprint")) ?? "";
  expect(value).toMatch(/^\d{4} \d{4} \d{4}$/);
  expect(await shown.textContent()).toContain("the server is showing you different members");
  return value;
}

/**
 * Signed distribution (issue 11, item 2; docs/protocol.md §14.7–14.8) against a server that lies
 * about who takes part and who handed out the key: a ghost participant, a key copy it sealed
 * itself, a forked and a rolled-back membership log (against the head a client remembers, and
 * against the head another member's message names), a message in someone's name without their
 * signature. The server holds nobody's signing key: what it serves is either its own (unsigned,
 * or signed over something else) or something a member really signed, shown where it does not
 * belong.
 */

interface LogAnswer {
  entries: SignedMembershipEntry[];
  epochs: { epoch: number; record: { record: { participants: { userId: number; keyId: string }[] } } | null; link: string | null }[];
  copy: SignedSealedKey | null;
  epoch: number;
  needs_rekey: boolean;
}
interface ParticipantAnswer {
  user_id: number;
  admin: boolean;
}
interface PageAnswer {
  participants: ParticipantAnswer[];
  meta?: { participants: ParticipantAnswer[] } & Record<string, unknown>;
  motes: Record<string, unknown>[];
}

/** Alice starts a signed conversation with Bob in her browser and waits until it opened (its log head remembered). */
async function signedConversation(run: Run, title: string) {
  const { alice, bob } = await aliceAndBob();
  const page = await run.visitor();
  await signInAs(page, alice);
  const id = await conversationWith(page, bob.email, title);
  await personRow(page, bob.session.id).waitFor({ timeout: 30_000 });
  return { alice, bob, page, id };
}

const logOf = async (member: Member, id: number) => (await http<LogAnswer>("GET", `/api/conversations/${id}/log`, { token: member.session.api_token })).body;

/** The server's list of people in a page answer (and its meta), changed by `change`. */
function listing(change: (people: ParticipantAnswer[]) => ParticipantAnswer[]) {
  return (answer: PageAnswer) => ({ ...answer, participants: change(answer.participants), ...(answer.meta ? { meta: { ...answer.meta, participants: change(answer.meta.participants) } } : {}) });
}

/** What a refused conversation shows: its warning, and nothing of its messages. */
async function blocked(page: Page, reason: string, text: string) {
  const warning = trustWarning(page, reason);
  await warning.waitFor({ timeout: 30_000 });
  expect(await warning.textContent()).toContain(text);
  expect(await messageList(page).count()).toBe(0);
}

/**
 * Alice's signed conversation with Bob, to which she adds Carol in her browser (after `first`, if
 * given); opened again, her browser verifies the log with Carol and remembers its head. Dan shares
 * a group with her too. Answers the log as it was before Carol (`before`).
 */
async function carolAdded(run: Run, title: string, first?: (scene: Awaited<ReturnType<typeof signedConversation>>) => Promise<void>) {
  const started = await signedConversation(run, title);
  const { alice, bob, page, id } = started;
  await first?.(started);
  const root = await rootAdmin();
  const [carol, dan] = [await invitedMember(root), await invitedMember(root)];
  await shareGroup(alice.session, carol.session, dan.session);
  const before = await logOf(alice, id);
  await addPerson(page, carol.email);
  await gotoApp(page, `/conversation/${id}`, TEST_CODE);
  await personRow(page, carol.session.id).waitFor({ timeout: 30_000 });
  return { alice, bob, carol, dan, page, id, before };
}

/**
 * Another history Alice's keys signed: `before` (Alice's answer) with Dan added where she went on
 * otherwise (a change from her other browser that lost the race, which a lying server kept to show
 * to whom it likes), with the record she would sign for it. Epoch 0's copies stay valid.
 */
async function withDanAdded(id: number, before: LogAnswer, alice: Member, bob: Member, dan: Member): Promise<LogAnswer> {
  const container = membershipContainer("conversation", id);
  const keysOf = await keysOfMembers([alice, bob, dan]);
  const added = await appendToLog(await verifyLog(container, before.entries, keysOf), { action: "add", subject: { userId: dan.session.id, keyId: dan.me.keyId }, at: Date.now() }, alice.me);
  const forkLog = await verifyLog(container, [...before.entries, added], keysOf);
  const { key } = await openConversationKey(before.copy!.sealed, alice.keys.encrypt, { conversationId: id, epoch: 0, extractable: true });
  const record = await createConversationRecord(key, forkLog.members, forkLog, alice.me);
  return { ...before, entries: [...before.entries, added], epochs: [{ epoch: 0, record: record as unknown as LogAnswer["epochs"][number]["record"], link: null }] };
}

/** Bob, in a fresh browser on the conversation, shown the other history: Dan in, Carol out, each entry signed by Alice, with his own copy of the key. */
async function forkShownToBob(run: Run, scene: { alice: Member; bob: Member; carol: Member; dan: Member; id: number; before: LogAnswer }) {
  const { alice, bob, carol, dan, id, before } = scene;
  const fork = { ...(await withDanAdded(id, before, alice, bob, dan)), copy: (await logOf(bob, id)).copy };
  const lie = run.proxy.lie("GET", `/api/conversations/${id}/log`, () => fork);
  run.proxy.lie("GET", `/api/conversations/${id}`, listing((people) => people.map((p) => (p.user_id === carol.session.id ? { ...p, user_id: dan.session.id } : p))));
  const bobs = await run.visitor();
  await signInAs(bobs, bob);
  await gotoApp(bobs, `/conversation/${id}`, TEST_CODE);
  return { bobs, lie };
}

export function distributionAttacks(suite: MaliciousSuite): void {
  suite.attack("a ghost participant: the server adds Mal to the people it lists and to the conversation's record", {
    check: "members-from-log",
    timeout: 240_000,
    async mount(run) {
      const { page, id } = await signedConversation(run, "Board only");
      const mal = await invitedMember(await rootAdmin());
      const ghost = { userId: mal.session.id, keyId: mal.me.keyId };
      // The record's signature no longer covers its participants: the server cannot sign it again.
      const lie = run.proxy.lie("GET", `/api/conversations/${id}/log`, (answer: LogAnswer) => ({
        ...answer,
        epochs: answer.epochs.map((e) =>
          e.record ? { ...e, record: { ...e.record, record: { ...e.record.record, participants: [...e.record.record.participants, ghost].sort((a, b) => a.userId - b.userId) } } } : e,
        ),
      }));
      run.proxy.lie("GET", `/api/conversations/${id}`, listing((people) => [...people, { user_id: mal.session.id, admin: false }]));
      await gotoApp(page, `/conversation/${id}`, TEST_CODE);
      return { page, lie, mal };
    },
    async refused({ page, lie, mal }) {
      await blocked(page, "ghost_participant", "names someone who is not a member by its signed history");
      expect(lie.hits).toBeGreaterThan(0);
      expect(await personRow(page, mal.session.id).count()).toBe(0);
    },
    async works({ page, lie, mal }) {
      // The server's word on who takes part: Mal is shown among the people who read along.
      await personRow(page, mal.session.id).waitFor({ timeout: 30_000 });
      expect(lie.hits).toBeGreaterThan(0);
      await noTrustWarning(page);
    },
  });

  suite.attack("a ghost in the people of a version 1 conversation: the server lists Mal, and its migration would sign Mal in with a copy of the key", {
    check: "migration-people",
    timeout: 240_000,
    async mount(run) {
      const { alice, bob } = await aliceAndBob();
      // Made as protocol v1 made them: copies for Alice and Bob, nothing signed to check a list against.
      const { id } = await startConversation(alice.session, [bob.session], { realKeys: true, v1: true, title: "From the old days" });
      const mal = await invitedMember(await rootAdmin());
      const lie = run.proxy.lie("GET", `/api/conversations/${id}`, listing((people) => [...people, { user_id: mal.session.id, admin: false }]));
      const page = await run.visitor();
      await signInAs(page, alice);
      // Alice, its author, opens it: the one whose client may move it to a signed log.
      await gotoApp(page, `/conversation/${id}`, TEST_CODE);
      return { page, lie, mal, id };
    },
    async refused({ page, lie, mal, id }, run) {
      // The people are shown, Mal among them, and nothing is signed or sealed without Alice's word.
      const notice = page.locator("[data-migration]");
      await notice.waitFor({ timeout: 30_000 });
      expect(await notice.textContent()).toContain("Check who takes part before this conversation is signed");
      await notice.locator(`[data-participant="${mal.session.id}"]`).waitFor();
      expect(lie.hits).toBeGreaterThan(0);
      await notice.getByRole("button", { name: "Not now" }).click();
      await notice.waitFor({ state: "detached" });
      expect(run.proxy.sentTo("POST", `/api/conversations/${id}/log`)).toEqual([]);
    },
    async works({ lie, mal, id }, run) {
      // The server's list taken as it is: Mal is signed in and sealed a copy of the key (all of its history).
      await expect.poll(() => run.proxy.sentTo("POST", `/api/conversations/${id}/log`).length, { timeout: 30_000 }).toBe(1);
      expect(lie.hits).toBeGreaterThan(0);
      expect((await openedBy(sentCopies(run.proxy.sent), mal.keys)).map((copy) => copy.userId)).toEqual([mal.session.id]);
    },
  });

  suite.attack("an injected key copy: the server seals a key of its own for Alice in place of the copy Alice signed", {
    check: "copy-signature",
    timeout: 240_000,
    async mount(run) {
      const { alice, page, id } = await signedConversation(run, "Our numbers");
      const serverKey = await generateSymmetricKey();
      const { encryptPublic } = await accountPublicKeys(alice.keys);
      // Sealed for Alice's real key and this conversation's place; the signature is the one Alice made over her own copy.
      const lie = run.proxy.lie("GET", `/api/conversations/${id}/log`, async (answer: LogAnswer) => ({
        ...answer,
        copy: { ...answer.copy!, sealed: await sealConversationKey(serverKey, encryptPublic, { conversationId: id, epoch: answer.epoch }) },
      }));
      await gotoApp(page, `/conversation/${id}`, TEST_CODE);
      return { alice, page, lie, id, serverKey };
    },
    async refused({ page, lie, id }, run) {
      await blocked(page, "copy_invalid", "was not handed out by one of its participants");
      expect(lie.hits).toBeGreaterThan(0);
      expect(await messageBox(page).count()).toBe(0);
      expect(run.proxy.sentTo("POST", `/api/conversations/${id}/append`)).toEqual([]);
    },
    async works({ alice, page, lie, id, serverKey }, run) {
      // Alice writes under the server's key: the server reads it.
      await messageBox(page).fill("Only for the two of us");
      await messageBox(page).press("Enter");
      const appended = () => run.proxy.sentTo("POST", `/api/conversations/${id}/append`);
      await expect.poll(() => appended().length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(lie.hits).toBeGreaterThan(0);
      const sent = appended()[0]!.body as { localid: string; payload: string; epoch: number };
      const read = await openMessage(serverKey, sent.payload, { v: 2, conversationId: id, epoch: sent.epoch, senderId: alice.session.id, localid: sent.localid });
      expect(read.text).toBe("Only for the two of us");
    },
  });

  suite.attack("a fork and a rollback of the membership log: Alice is shown another history Alice signed, then an older one", {
    check: "log-head",
    timeout: 300_000,
    async mount(run) {
      const { alice, bob, carol, dan, page, id, before } = await carolAdded(run, "Who is in");
      const fork = await withDanAdded(id, before, alice, bob, dan);
      const lie = run.proxy.lie("GET", `/api/conversations/${id}/log`, () => fork);
      run.proxy.lie("GET", `/api/conversations/${id}`, listing((people) => people.map((p) => (p.user_id === carol.session.id ? { ...p, user_id: dan.session.id } : p))));
      await gotoApp(page, `/conversation/${id}`, TEST_CODE);
      /** The second lie: the log as it was before Carol was added, with the record of then. */
      const rollBack = async () => {
        const older = run.proxy.lie("GET", `/api/conversations/${id}/log`, () => before);
        run.proxy.lie("GET", `/api/conversations/${id}`, listing((people) => people.filter((p) => p.user_id !== carol.session.id)));
        await gotoApp(page, `/conversation/${id}`, TEST_CODE);
        return older;
      };
      return { page, lie, rollBack, bob, carol, dan };
    },
    async refused({ page, lie, rollBack, dan }) {
      await blocked(page, "log_fork", "not the one this browser verified before");
      expect(lie.hits).toBeGreaterThan(0);
      expect(await personRow(page, dan.session.id).count()).toBe(0);
      const older = await rollBack();
      await blocked(page, "log_fork", "or an older one");
      expect(older.hits).toBeGreaterThan(0);
    },
    async works({ page, lie, rollBack, bob, carol, dan }) {
      // Without the remembered head, the other history is taken: Dan in, Carol out.
      await personRow(page, dan.session.id).waitFor({ timeout: 30_000 });
      expect(await personRow(page, carol.session.id).count()).toBe(0);
      expect(lie.hits).toBeGreaterThan(0);
      await noTrustWarning(page);
      // And the older one: Carol is gone from the people Alice sees.
      const older = await rollBack();
      await personRow(page, bob.session.id).waitFor({ timeout: 30_000 });
      expect(await personRow(page, carol.session.id).count()).toBe(0);
      expect(await personRow(page, dan.session.id).count()).toBe(0);
      expect(older.hits).toBeGreaterThan(0);
      await noTrustWarning(page);
    },
  });

  suite.attack("a fork shown from the start: Bob is shown a history with Dan where Alice added Carol, and opens a message Alice sent", {
    check: "message-log-head",
    timeout: 300_000,
    async mount(run) {
      const { alice, bob, carol, dan, page, id, before } = await carolAdded(run, "Who reads along");
      // Alice writes: her message names the head of her log, with Carol.
      await send(page, "Carol reads along from now on");
      await page.close();

      // Bob, who never opened the conversation (no head of his own to remember), is shown the other history.
      const { bobs, lie } = await forkShownToBob(run, { alice, bob, carol, dan, id, before });
      return { page: bobs, lie, carol, dan };
    },
    async refused({ page, lie, dan }) {
      // Alice's message names another entry at the seq where Bob's log added Dan: the fork shows.
      await blocked(page, "log_fork", "not the one another member's message was sent in");
      expect(lie.hits).toBeGreaterThan(0);
      expect(await personRow(page, dan.session.id).count()).toBe(0);
    },
    async works({ page, lie, carol, dan }) {
      // Heads not compared: Bob takes the forked history (Dan, not Carol) and reads Alice's message as verified.
      const shown = messageList(page).locator('[data-message-verified="true"]').getByText("Carol reads along from now on", { exact: true });
      await shown.waitFor({ timeout: 30_000 });
      await personRow(page, dan.session.id).waitFor({ timeout: 30_000 });
      expect(await personRow(page, carol.session.id).count()).toBe(0);
      expect(lie.hits).toBeGreaterThan(0);
      await noTrustWarning(page);
    },
  });

  suite.attack("a fork nobody writes into: Bob is shown a history with Dan where Alice added Carol; they compare membership fingerprints", {
    check: "fingerprint-of-head",
    timeout: 300_000,
    async mount(run) {
      // Without a fork: Alice and Bob see the same fingerprint, before Alice adds Carol. Bob's
      // browser remembers this head.
      const same: string[] = [];
      const scene = await carolAdded(run, "Compare in person", async ({ alice, bob, page, id }) => {
        const bobs = await run.visitor();
        await signInAs(bobs, bob);
        await gotoApp(bobs, `/conversation/${id}`, TEST_CODE);
        await personRow(bobs, alice.session.id).waitFor({ timeout: 30_000 });
        same.push(await fingerprintOn(page), await fingerprintOn(bobs));
        await bobs.close();
      });
      const { page, dan } = scene;
      const alices = await fingerprintOn(page);
      await page.close();
      // The server keeps the other history Alice signed (Dan added) for Bob.
      const { bobs: forked, lie } = await forkShownToBob(run, scene);
      // Nobody wrote, and the fork continues the head Bob remembers: nothing else catches it.
      await personRow(forked, dan.session.id).waitFor({ timeout: 30_000 });
      await noTrustWarning(forked);
      return { same, alices, bobs: await fingerprintOn(forked), lie };
    },
    async refused({ same, alices, bobs, lie }) {
      expect(same[0]).toBe(same[1]);
      // Compared, the two fingerprints differ: the server shows them different members.
      expect(bobs).not.toBe(alices);
      expect(lie.hits).toBeGreaterThan(0);
    },
    async works({ same, alices, bobs, lie }) {
      // Of something both histories share (the first entry): the same value, the fork unseen.
      expect(same[0]).toBe(same[1]);
      expect(bobs).toBe(alices);
      expect(lie.hits).toBeGreaterThan(0);
    },
  });

  suite.attack("a message in Bob's name he did not sign: the server adds it to Alice's page, sealed under the conversation's key", {
    check: "message-signature",
    timeout: 240_000,
    async mount(run) {
      const { bob, page, id } = await signedConversation(run, "Payments");
      // Whoever holds the key can seal a message that names Bob; only Bob can sign it. (The test
      // takes the key from Bob's copy; a member who helps the server, or one removed later in the
      // epoch, would have it.)
      const bobsCopy = (await logOf(bob, id)).copy!;
      const { key } = await openConversationKey(bobsCopy.sealed, bob.keys.encrypt, { conversationId: id, epoch: 0 });
      const localid = "forged-1";
      const forged = {
        id: 900_000_000 + id,
        source_id: bob.session.id,
        timestamp: Math.floor(Date.now() / 1000),
        payload: await sealMessage(key, { v: 2, conversationId: id, epoch: 0, senderId: bob.session.id, localid }, { text: "Please pay the invoice to my new account" }),
        localid,
        epoch: 0,
        signature: null,
        sender_key_id: null,
      };
      const lie = run.proxy.lie("GET", `/api/conversations/${id}`, (answer: PageAnswer, exchange) => (exchange.query.get("meta") === "1" ? { ...answer, motes: [...answer.motes, forged] } : answer));
      await gotoApp(page, `/conversation/${id}`, TEST_CODE);
      return { page, lie, shown: messageList(page).locator(`[data-message="${forged.id}"]`) };
    },
    async refused({ lie, shown }) {
      await shown.locator("[data-message-unverified]").waitFor({ timeout: 30_000 });
      expect(await shown.getAttribute("data-message-verified")).toBe("false");
      expect(await shown.textContent()).toContain("Unverified sender");
      expect(await shown.textContent()).not.toContain("Please pay the invoice");
      expect(lie.hits).toBeGreaterThan(0);
    },
    async works({ lie, shown }) {
      // Shown as Bob's, and as verified.
      await shown.getByText("Please pay the invoice to my new account").waitFor({ timeout: 30_000 });
      expect(await shown.getAttribute("data-message-verified")).toBe("true");
      expect(lie.hits).toBeGreaterThan(0);
    },
  });
}
