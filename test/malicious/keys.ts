import { keypairRecord } from "@sealwork/contracts";
import {
  type AccountKeys,
  accountPublicKeys,
  createKeyReset,
  createLegacyRule,
  createResetIdentity,
  createRootIdentity,
  generateAccountKeys,
  identityKeys,
  openConversationKey,
  openConversationTitle,
  signRecord,
} from "@sealwork/crypto";
import { expect } from "vitest";
import { conversationPanel } from "../e2e/conversation-helpers";
import { errorDialogText } from "../e2e/helpers";
import { http } from "../support/api";
import { shareGroup } from "../support/conversations";
import { type Member, chainOf, invitedMember, rootAdmin } from "../support/identities";
import type { MaliciousSuite, Run } from "./harness";
import { aliceAndBob, conversationWith, logout, openedBy, rotate, sentCopies, signInAs, startConversationWith, trustWarning } from "./scenes";

/** The server answers keys of its own for `member`, dressed as their identity: a root record for their id and address. */
async function substituteKey(run: Run, member: Member) {
  const serverKeys = await generateAccountKeys();
  const forged = await createRootIdentity({ userId: member.session.id, email: member.email, created: Date.now() }, serverKeys);
  const lie = run.proxy.lie("GET", `/api/identities/${member.session.id}`, () => ({ chain: { userId: member.session.id, records: [forged], issuers: [], admins: [] }, legacy: null }));
  return { lie, serverKeys, forged };
}

/**
 * A key reset the server makes up for `member`: their real chain, then a record for keys of its
 * own, certified by a reset that an "administrator" of its making issued (a root identity of the
 * server's own, served among the issuers). Only a client that takes any root for an anchor follows it.
 */
async function forgeReset(run: Run, member: Member) {
  const serverKeys = await generateAccountKeys();
  const temp = await generateAccountKeys();
  const adminKeys = await generateAccountKeys();
  const adminId = 990_000 + member.session.id;
  const adminRoot = await createRootIdentity({ userId: adminId, email: `admin${adminId}@example.org`, created: Date.now() }, adminKeys);
  const current = (await chainOf(member.session.api_token, member.session.id)).chain!.records.at(-1)!;
  const reset = await createKeyReset({ userId: member.session.id, current, temp: await accountPublicKeys(temp), expires: Date.now() + 86_400_000 }, await identityKeys(adminId, adminKeys));
  const record = await createResetIdentity({ current, created: Date.now(), reset }, serverKeys, temp);
  const lie = run.proxy.lie("GET", `/api/identities/${member.session.id}`, (bundle) => ({
    ...bundle,
    chain: { ...bundle.chain, records: [...bundle.chain.records, record], issuers: [...bundle.chain.issuers, { userId: adminId, records: [adminRoot] }] },
  }));
  return { lie, serverKeys };
}

/**
 * The server answers keys of its own for `member` as a protocol v1 account's key: no identity,
 * the v1 record self-signed by the server's key, no administrator's certificate.
 */
async function substituteLegacyKey(run: Run, member: Member) {
  const serverKeys = await generateAccountKeys();
  const pub = await accountPublicKeys(serverKeys);
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = await signRecord(serverKeys.sign.privateKey, keypairRecord({ uid: member.session.id, ...pub, timestamp }));
  const legacy = { id: 900_000 + member.session.id, encrypt_public: pub.encryptPublic, sign_public: pub.signPublic, timestamp, signature: { ...signature }, certificate: null, issuer: null };
  const lie = run.proxy.lie("GET", `/api/identities/${member.session.id}`, () => ({ chain: null, legacy }));
  return { lie, serverKeys };
}

/**
 * The instance's legacy rule, signed by its root, in the anchors' answer: what the server serves
 * once the root published it. The shared runtime does not publish it (its other tests seal for
 * version 1 members), so the proxy adds the root's genuine rule for this run's browser alone.
 */
async function withLegacyRule(run: Run) {
  const rule = await createLegacyRule({ made: Date.now() }, (await rootAdmin()).me);
  return run.proxy.lie("GET", "/api/identities/anchors", (answer: Record<string, unknown>) => ({ ...answer, legacy_rule: rule }));
}

const UNTRUSTED = "Warning: this person's key has changed, and the change is not signed by their previous key or certified by an administrator.";
const PINS_ROLLED_BACK = "Warning: the server answered an older copy of your saved contact keys than this browser has seen before.";


/**
 * Bob moved to a new key (seq 1, certified by his first; the server keeps the old record), and
 * Alice, signed in on a new browser, met him at it: a conversation with him pinned seq 1.
 * `beforeMeeting` runs once she is signed in, before she meets him.
 */
async function aliceMetBobsNewKey(run: Run, beforeMeeting?: (alice: Member) => Promise<void>) {
  const { alice, bob } = await aliceAndBob();
  const oldKeys = bob.keys;
  await rotate(bob);
  const page = await run.visitor();
  await signInAs(page, alice);
  await beforeMeeting?.(alice);
  await conversationWith(page, bob.email, "First contact");
  return { alice, bob, oldKeys, page };
}

/** From now on the server answers only Bob's first record: validly signed, but older than the pin. */
const olderRecordOnly = (run: Run, bob: Member) =>
  run.proxy.lie("GET", `/api/identities/${bob.session.id}`, (bundle) => ({ ...bundle, chain: { ...bundle.chain, records: bundle.chain.records.slice(0, 1) } }));

/** The conversation made after `createdBefore` ones has Bob's copy sealed for his old key: whoever holds that key reads along. */
async function sealedForOldKey(run: Run, { createdBefore, oldKeys, bobId }: { createdBefore: number; oldKeys: AccountKeys; bobId: number }): Promise<void> {
  const created = () => run.proxy.sentTo("POST", "/api/conversations");
  await expect.poll(() => created().length, { timeout: 30_000 }).toBe(createdBefore + 1);
  const { id } = created().at(-1)!.body as { id: number };
  const copies = sentCopies(run.proxy.sent).filter((copy) => copy.conversationId === id);
  expect((await openedBy(copies, oldKeys)).map((copy) => copy.userId)).toEqual([bobId]);
}

/** Whose key is whose (issue 11, item 1): the server answers keys for a contact that are not theirs, or not their newest. */
export function keyAttacks(suite: MaliciousSuite): void {
  suite.attack("a substituted public key: the server answers a key of its own for Bob, with a valid self-signature on a root of its own", {
    check: "identity-anchors",
    async mount(run) {
      const { alice, bob } = await aliceAndBob();
      const { lie, serverKeys } = await substituteKey(run, bob);
      // Alice has never met Bob: no pin, only the instance's anchors stand between her and the lie.
      const page = await run.visitor();
      await signInAs(page, alice);
      await startConversationWith(page, bob.email, "Plans for Friday");
      return { page, lie, serverKeys, bob };
    },
    async refused({ page, lie, serverKeys }, run) {
      const text = await errorDialogText(page);
      expect(text).toContain(UNTRUSTED);
      expect(text).toContain("Nothing is encrypted for them until this is cleared up");
      expect(lie.hits).toBeGreaterThan(0);
      expect(page.url()).not.toMatch(/\/conversation\/\d+$/);
      // Nothing was created, and no copy of any key went out for the server's key.
      expect(run.proxy.sentTo("POST", "/api/conversations")).toEqual([]);
      expect(await openedBy(sentCopies(run.proxy.sent), serverKeys)).toEqual([]);
    },
    async works({ page, lie, serverKeys, bob }, run) {
      await page.waitForURL(/\/conversation\/\d+$/, { timeout: 30_000 });
      expect(lie.hits).toBeGreaterThan(0);
      // The server opens Bob's copy with its own key, and reads the title Alice typed.
      const opened = await openedBy(sentCopies(run.proxy.sent), serverKeys);
      expect(opened.map((copy) => copy.userId)).toEqual([bob.session.id]);
      const copy = opened[0];
      const { key } = await openConversationKey(copy!.sealed, serverKeys.encrypt, { conversationId: copy!.conversationId, epoch: copy!.epoch });
      const created = run.proxy.sentTo("POST", "/api/conversations")[0]!.body as { title: string };
      expect((await openConversationTitle(key, created.title, { conversationId: copy!.conversationId })).title).toBe("Plans for Friday");
    },
  });

  suite.attack("the pins withheld: the server drops the pin book of Alice, signing in on a browser where Bob signed in before, and shows a root of its own beside the instance's, with keys of its own for Bob", {
    check: "pins-browser-anchors",
    timeout: 240_000,
    async mount(run) {
      const { alice, bob } = await aliceAndBob();
      const page = await run.visitor();
      // Bob signed in on this browser before: it pinned the instance's anchors with him. (A book
      // of Alice's that this browser saw would be refused when dropped: the "pins replayed" case.)
      await signInAs(page, bob);
      await page.getByRole("heading", { name: /^Hello/ }).waitFor();
      await logout(page);
      const { lie, serverKeys, forged } = await substituteKey(run, bob);
      const dropped = run.proxy.lie("GET", "/api/identities/pins", (answer) => ({ ...answer, data: null }));
      const roots = run.proxy.lie("GET", "/api/identities/anchors", (answer) => ({ ...answer, roots: [...answer.roots, forged] }));
      // Alice signs in here: the server answers no pin book, as for an account that never had one.
      await signInAs(page, alice);
      await startConversationWith(page, bob.email, "Plans after the drop");
      return { page, lie, dropped, roots, serverKeys, bob };
    },
    async refused({ page, lie, dropped, serverKeys }, run) {
      // The anchors this browser pinned stay (the roots the server shows are read for the legacy rule only): Bob's keys rest on no root of the instance's.
      expect(await errorDialogText(page)).toContain(UNTRUSTED);
      expect(dropped.hits).toBeGreaterThan(0);
      expect(lie.hits).toBeGreaterThan(0);
      expect(run.proxy.sentTo("POST", "/api/conversations")).toEqual([]);
      expect(await openedBy(sentCopies(run.proxy.sent), serverKeys)).toEqual([]);
    },
    async works({ dropped, roots, serverKeys, bob }, run) {
      // Starting from nothing, the browser pins the roots the server shows: the server's own key for Bob gets his copy.
      await expect.poll(() => run.proxy.sentTo("POST", "/api/conversations").length, { timeout: 30_000 }).toBe(1);
      expect(dropped.hits).toBeGreaterThan(0);
      expect(roots.hits).toBeGreaterThan(0);
      expect((await openedBy(sentCopies(run.proxy.sent), serverKeys)).map((copy) => copy.userId)).toEqual([bob.session.id]);
    },
  });

  suite.attack("the pins replayed: the server answers Alice's pin book of before she met Bob's newer key, and his older identity record", {
    check: "pins-saves",
    timeout: 240_000,
    async mount(run) {
      // The server keeps Alice's book from before she met Bob's new key (her anchors pinned at sign-in, no Bob yet).
      let before: string | null = null;
      const { alice, bob, oldKeys, page } = await aliceMetBobsNewKey(run, async (alice) => {
        const book = async () => (await http<{ data: string | null }>("GET", "/api/identities/pins", { token: alice.session.api_token })).body.data;
        await expect.poll(book, { timeout: 30_000 }).not.toBeNull();
        before = await book();
      });
      const replayed = run.proxy.lie("GET", "/api/identities/pins", (answer) => ({ ...answer, data: before }));
      const lie = olderRecordOnly(run, bob);
      // She signs in again on the same browser: the pins load afresh.
      await logout(page);
      await signInAs(page, alice);
      const createdBefore = run.proxy.sentTo("POST", "/api/conversations").length;
      await startConversationWith(page, bob.email, "After the replay");
      return { page, lie, replayed, oldKeys, createdBefore, bobId: bob.session.id };
    },
    async refused({ page, replayed, oldKeys, createdBefore }, run) {
      expect(await errorDialogText(page)).toContain(PINS_ROLLED_BACK);
      await expect.poll(() => trustWarning(page, "pins_rolled_back").textContent()).toContain(PINS_ROLLED_BACK);
      expect(replayed.hits).toBeGreaterThan(0);
      expect(run.proxy.sentTo("POST", "/api/conversations")).toHaveLength(createdBefore);
      expect(await openedBy(sentCopies(run.proxy.sent), oldKeys)).toEqual([]);
    },
    async works({ lie, replayed, ...sealed }, run) {
      // The replayed book never pinned Bob's newer key: his old one is pinned again, and gets his copy.
      await sealedForOldKey(run, sealed);
      expect(replayed.hits).toBeGreaterThan(0);
      expect(lie.hits).toBeGreaterThan(0);
    },
  });

  suite.attack("a substituted public key when Alice adds Carol to a conversation", {
    check: "identity-anchors",
    timeout: 240_000,
    async mount(run) {
      const { alice, bob } = await aliceAndBob();
      const carol = await invitedMember(await rootAdmin());
      await shareGroup(alice.session, carol.session);
      const page = await run.visitor();
      await signInAs(page, alice);
      const id = await conversationWith(page, bob.email, "Budget");
      const { lie, serverKeys } = await substituteKey(run, carol);
      await conversationPanel(page).getByRole("button", { name: "Add more people" }).click();
      const dialog = page.getByRole("dialog", { name: "Add people" });
      await dialog.getByLabel("Email or phone").fill(carol.email);
      await dialog.getByRole("button", { name: "Add", exact: true }).click();
      return { page, lie, serverKeys, carol, id };
    },
    async refused({ page, lie, serverKeys, id }, run) {
      expect(await errorDialogText(page)).toContain(UNTRUSTED);
      expect(lie.hits).toBeGreaterThan(0);
      expect(run.proxy.sentTo("POST", `/api/conversations/${id}/log`)).toEqual([]);
      expect(await openedBy(sentCopies(run.proxy.sent), serverKeys)).toEqual([]);
    },
    async works({ lie, serverKeys, carol, id }, run) {
      await expect.poll(() => run.proxy.sentTo("POST", `/api/conversations/${id}/log`).length, { timeout: 30_000 }).toBe(1);
      expect(lie.hits).toBeGreaterThan(0);
      // Carol's copy of the existing conversation's key is the server's to open: all of its history with it.
      expect((await openedBy(sentCopies(run.proxy.sent), serverKeys)).map((copy) => [copy.conversationId, copy.userId])).toEqual([[id, carol.session.id]]);
    },
  });

  suite.attack("a substituted key presented as a protocol v1 key on first contact: the server's own v1 key for Bob, on an instance whose root requires certificates", {
    check: "legacy-uncertified",
    async mount(run) {
      const { alice, bob } = await aliceAndBob();
      const rule = await withLegacyRule(run);
      const { lie, serverKeys } = await substituteLegacyKey(run, bob);
      // Alice has never met Bob: no pin; the rule she pinned at unlock is all that stands against the lie.
      const page = await run.visitor();
      await signInAs(page, alice);
      await startConversationWith(page, bob.email, "Legacy plans");
      return { page, lie, rule, serverKeys, bob };
    },
    async refused({ page, lie, rule, serverKeys }, run) {
      const text = await errorDialogText(page);
      expect(text).toContain("Warning: this person's key is from version 1 and no administrator has certified it, which this instance requires.");
      expect(text).toContain("Nothing is encrypted for them until an administrator certifies their key.");
      expect(rule.hits).toBeGreaterThan(0);
      expect(lie.hits).toBeGreaterThan(0);
      expect(page.url()).not.toMatch(/\/conversation\/\d+$/);
      expect(run.proxy.sentTo("POST", "/api/conversations")).toEqual([]);
      expect(await openedBy(sentCopies(run.proxy.sent), serverKeys)).toEqual([]);
    },
    async works({ page, lie, rule, serverKeys, bob }, run) {
      await page.waitForURL(/\/conversation\/\d+$/, { timeout: 30_000 });
      expect(rule.hits).toBeGreaterThan(0);
      expect(lie.hits).toBeGreaterThan(0);
      // Pinned on first use as "not certified", sealed for: the server opens Bob's copy and reads the title.
      const opened = await openedBy(sentCopies(run.proxy.sent), serverKeys);
      expect(opened.map((copy) => copy.userId)).toEqual([bob.session.id]);
      const copy = opened[0]!;
      const { key } = await openConversationKey(copy.sealed, serverKeys.encrypt, { conversationId: copy.conversationId, epoch: copy.epoch });
      const created = run.proxy.sentTo("POST", "/api/conversations")[0]!.body as { title: string };
      expect((await openConversationTitle(key, created.title, { conversationId: copy.conversationId })).title).toBe("Legacy plans");
    },
  });

  suite.attack("a forged key reset: the server says an administrator reset the key of Bob, whom Alice has met, to keys of its own", {
    check: "identity-anchors",
    timeout: 240_000,
    async mount(run) {
      const { alice, bob } = await aliceAndBob();
      const page = await run.visitor();
      await signInAs(page, alice);
      // Alice meets Bob: a conversation with him pins his key.
      await conversationWith(page, bob.email, "Before the reset");
      const { lie, serverKeys } = await forgeReset(run, bob);
      const createdBefore = run.proxy.sentTo("POST", "/api/conversations").length;
      await startConversationWith(page, bob.email, "After the reset");
      return { page, lie, serverKeys, createdBefore, bobId: bob.session.id };
    },
    async refused({ page, lie, serverKeys, createdBefore }, run) {
      expect(await errorDialogText(page)).toContain(UNTRUSTED);
      expect(lie.hits).toBeGreaterThan(0);
      expect(run.proxy.sentTo("POST", "/api/conversations")).toHaveLength(createdBefore);
      expect(await openedBy(sentCopies(run.proxy.sent), serverKeys)).toEqual([]);
    },
    async works({ lie, serverKeys, createdBefore, bobId }, run) {
      const created = () => run.proxy.sentTo("POST", "/api/conversations");
      await expect.poll(() => created().length, { timeout: 30_000 }).toBe(createdBefore + 1);
      expect(lie.hits).toBeGreaterThan(0);
      // The pin followed the "reset": Bob's copy of the new conversation is the server's to open.
      const { id } = created().at(-1)!.body as { id: number };
      const copies = sentCopies(run.proxy.sent).filter((copy) => copy.conversationId === id);
      expect((await openedBy(copies, serverKeys)).map((copy) => copy.userId)).toEqual([bobId]);
    },
  });

  suite.attack("an old key record: the server answers Bob's older identity record after Alice has seen his newer one", {
    check: "pin-seq",
    timeout: 240_000,
    async mount(run) {
      const { bob, oldKeys, page } = await aliceMetBobsNewKey(run);
      const lie = olderRecordOnly(run, bob);
      const createdBefore = run.proxy.sentTo("POST", "/api/conversations").length;
      await startConversationWith(page, bob.email, "Second try");
      return { page, lie, oldKeys, createdBefore, bobId: bob.session.id };
    },
    async refused({ page, lie, oldKeys, createdBefore }, run) {
      const text = await errorDialogText(page);
      expect(text).toContain("Warning: the server answered an older key for this person than the one you have seen before.");
      expect(text).toContain("Nothing is encrypted for them until this is cleared up.");
      expect(lie.hits).toBeGreaterThan(0);
      expect(run.proxy.sentTo("POST", "/api/conversations")).toHaveLength(createdBefore);
      expect(await openedBy(sentCopies(run.proxy.sent), oldKeys)).toEqual([]);
    },
    async works({ lie, ...sealed }, run) {
      await sealedForOldKey(run, sealed);
      expect(lie.hits).toBeGreaterThan(0);
    },
  });
}
