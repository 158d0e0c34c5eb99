import { keypairRecord } from "@sealwork/contracts";
import {
  type AccountKeys,
  accountDataMark,
  accountPublicKeys,
  createKeyReset,
  createLegacyRule,
  createResetIdentity,
  createRootIdentity,
  generateAccountKeys,
  identityKeys,
  openConversationKey,
  openAccountData,
  openConversationTitle,
  sealAccountData,
  signRecord,
} from "@sealwork/crypto";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { conversationPanel } from "../e2e/conversation-helpers";
import { errorDialogText } from "../e2e/helpers";
import { http } from "../support/api";
import { shareGroup } from "../support/conversations";
import { type Member, chainOf, invitedMember, legacyMember, rootAdmin } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import type { TestCheck } from "../../web/build-settings";
import type { MaliciousSuite, Run } from "./harness";
import { aliceAndBob, conversationWith, logout, openedBy, recoverAs, rotate, sentCopies, signInAs, startConversationWith, trustWarning } from "./scenes";

/** The server answers keys of its own for `member`, dressed as their identity: a root record for their id and address. */
async function substituteKey(run: Run, member: Member) {
  const serverKeys = await generateAccountKeys();
  const forged = await createRootIdentity({ userId: member.session.id, email: member.email, created: Date.now() }, serverKeys);
  const lie = run.proxy.lie("GET", `/api/identities/${member.session.id}`, () => ({ chain: { userId: member.session.id, records: [forged], issuers: [], admins: [] }, legacy: null }));
  return { lie, serverKeys, forged };
}

/** The server drops the pin book, shows a root of its own beside the instance's, and keys of its own for `bob` on it. */
async function withheldPins(run: Run, bob: Member) {
  const { lie, serverKeys, forged } = await substituteKey(run, bob);
  const dropped = run.proxy.lie("GET", "/api/identities/pins", (answer) => ({ ...answer, data: null }));
  const roots = run.proxy.lie("GET", "/api/identities/anchors", (answer) => ({ ...answer, roots: [...answer.roots, forged] }));
  return { lie, serverKeys, dropped, roots };
}

/**
 * A withheld pin book: `prepare` readies a browser and the two members; the server then drops
 * Alice's book, shows a root of its own and its own key for Bob; Alice signs in and starts a
 * conversation with Bob. Refused: the untrusted_key warning, nothing created, nothing sealed for the
 * server's key. With the check off: the server's key gets Bob's copy.
 */
function withheldAttack(suite: MaliciousSuite, title: string, check: TestCheck, prepare: (run: Run) => Promise<{ page: Page; alice: Pick<Member, "email">; bob: Member }>) {
  suite.attack(title, {
    check,
    timeout: 240_000,
    async mount(run) {
      const { page, alice, bob } = await prepare(run);
      const { lie, serverKeys, dropped, roots } = await withheldPins(run, bob);
      await signInAs(page, alice);
      await startConversationWith(page, bob.email, "Plans after the drop");
      return { page, lie, dropped, roots, serverKeys, bob };
    },
    async refused({ page, lie, dropped, serverKeys }, run) {
      expect(await errorDialogText(page)).toContain(UNTRUSTED);
      expect(dropped.hits).toBeGreaterThan(0);
      expect(lie.hits).toBeGreaterThan(0);
      expect(run.proxy.sentTo("POST", "/api/conversations")).toEqual([]);
      expect(await openedBy(sentCopies(run.proxy.sent), serverKeys)).toEqual([]);
    },
    async works({ dropped, roots, serverKeys, bob }, run) {
      await expect.poll(() => run.proxy.sentTo("POST", "/api/conversations").length, { timeout: 30_000 }).toBe(1);
      expect(dropped.hits).toBeGreaterThan(0);
      expect(roots.hits).toBeGreaterThan(0);
      expect((await openedBy(sentCopies(run.proxy.sent), serverKeys)).map((copy) => copy.userId)).toEqual([bob.session.id]);
    },
  });
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
const PINS_FORKED = "Warning: the server answered a copy of your saved contact keys that does not follow from the one this browser has seen";

/**
 * What a browser of `member` that was shown the pin book `from` makes of it by saving on, with
 * nothing changed, until it has as many saves as `newest` (the book the server has now): the same
 * steps as lib/pins.ts, each save naming the mark of the one before.
 */
async function otherLine(member: Member, from: string, newest: string): Promise<string> {
  const place = { userId: member.session.id, kind: "pins" } as const;
  const target = ((await openAccountData(member.keys, place, newest)) as { saves: number }).saves;
  let book = (await openAccountData(member.keys, place, from)) as { saves: number; marks?: string[] };
  while (book.saves < target) book = { ...book, saves: book.saves + 1, marks: [...(book.marks ?? []), await accountDataMark(book)].slice(-64) };
  return sealAccountData(member.keys, place, book);
}


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

/** The pin book the server stores for `member`, once their browser saved one. */
async function storedBook(member: Member): Promise<string> {
  const book = async () => (await http<{ data: string | null }>("GET", "/api/identities/pins", { token: member.session.api_token })).body.data;
  await expect.poll(book, { timeout: 30_000 }).not.toBeNull();
  return (await book())!;
}

/** From now on the server answers only Bob's first record: validly signed, but older than the pin. */
const olderRecordOnly = (run: Run, bob: Member) =>
  // (An answer without a chain, such as an error's, goes through as it is.)
  run.proxy.lie("GET", `/api/identities/${bob.session.id}`, (bundle) => (bundle?.chain ? { ...bundle, chain: { ...bundle.chain, records: bundle.chain.records.slice(0, 1) } } : bundle));

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

  // Of the roots shown, the browser pinned the one Alice's own identity rests on: Bob's keys rest
  // on another. With the check off it pins every root the server shows at first use.
  // (Alice's backup is one wrapped before backups were bound to their anchor: else it names the root.)
  withheldAttack(suite, "the pins withheld in a new browser: the server drops the pin book of Alice, signing in where nobody did before, and shows a root of its own beside the instance's, with keys of its own for Bob", "anchors-own-chain", async (run) => {
    const root = await rootAdmin();
    const [alice, bob] = [await invitedMember(root, { unboundBackup: true }), await invitedMember(root)];
    await shareGroup(alice.session, bob.session);
    return { page: await run.visitor(), alice, bob };
  });

  // Alice's backup, which her code opens, is bound to the instance's root: opened, it names the
  // anchor to pin, whatever the server shows or withholds. With the check off the browser has only
  // the server's word: no chain for Alice (as for a version 1 account), so every root shown.
  withheldAttack(suite, "the anchor withheld: the server answers no identity for Alice (as for a version 1 account) and no pin book, signing in where nobody did before, and shows a root of its own beside the instance's, with keys of its own for Bob", "backup-anchor", async (run) => {
    const { alice, bob } = await aliceAndBob();
    run.proxy.lie("GET", `/api/identities/${alice.session.id}`, (bundle) => ({ ...bundle, chain: null }));
    return { page: await run.visitor(), alice, bob };
  });

  // Alice's backup is bound to the instance's root, which this browser pinned with Bob before, and
  // the server withholds that root: her right code opens the backup only with the root remembered.
  // Refused with a text of its own (ANWH), so that she does not take it for a forgotten code and
  // have her key reset. With the check off, the popup says her code is wrong.
  suite.attack("the root withheld: the server shows no instance root to Alice, whose backup is bound to it, on a browser where Bob signed in before; she types her right code", {
    check: "backup-anchor-shown",
    timeout: 240_000,
    async mount(run) {
      const { alice, bob } = await aliceAndBob();
      const page = await run.visitor();
      await signInAs(page, bob);
      await page.getByRole("heading", { name: /^Hello/ }).waitFor();
      await logout(page);
      const roots = run.proxy.lie("GET", "/api/identities/anchors", (answer) => ({ ...answer, roots: [] }));
      await recoverAs(page, alice);
      return { page, roots };
    },
    async refused({ page, roots }) {
      const popup = page.locator('[data-key-state="error"]');
      await expect.poll(() => popup.textContent(), { timeout: 60_000 }).toContain("the server no longer shows the instance key your key belongs to");
      expect(roots.hits).toBeGreaterThan(0);
    },
    async works({ page, roots }) {
      await page.getByText("Error decrypting your key.").waitFor({ timeout: 60_000 });
      expect(await page.locator('[data-key-state="recovery"]').count()).toBe(1);
      expect(roots.hits).toBeGreaterThan(0);
    },
  });

  // The anchors this browser pinned with Bob stay (the roots the server shows are read for the
  // legacy rule only). With the check off it starts from nothing and pins the roots the server shows.
  withheldAttack(suite, "the pins withheld from a version 1 account: the server drops the pin book of Alice (no identity of her own), signing in on a browser where Bob signed in before, and shows a root of its own beside the instance's, with keys of its own for Bob", "pins-browser-anchors", async (run) => {
    const root = await rootAdmin();
    const bob = await invitedMember(root);
    // A version 1 account has no chain of its own to find the instance's root by.
    const alice = await legacyMember(root, `alice.v1.${Date.now()}@example.ch`, undefined, TEST_CODE);
    await shareGroup(alice.session, bob.session);
    const page = await run.visitor();
    // Bob signed in on this browser before: it pinned the instance's anchors with him. (A book
    // of Alice's that this browser saw would be refused when dropped: the "pins replayed" case.)
    await signInAs(page, bob);
    await page.getByRole("heading", { name: /^Hello/ }).waitFor();
    await logout(page);
    return { page, alice, bob };
  });

  suite.attack("the pins replayed: the server answers Alice's pin book of before she met Bob's newer key, and his older identity record", {
    check: "pins-saves",
    timeout: 240_000,
    async mount(run) {
      // The server keeps Alice's book from before she met Bob's new key (her anchors pinned at sign-in, no Bob yet).
      let before: string | null = null;
      const { alice, bob, oldKeys, page } = await aliceMetBobsNewKey(run, async (alice) => void (before = await storedBook(alice)));
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

  suite.attack("the pins forked: Alice's other browser was shown her pin book of before she met Bob's newer key and saved over it; the server answers that line, as many saves long, and Bob's older record", {
    check: "pins-line",
    timeout: 240_000,
    async mount(run) {
      let before: string | null = null;
      const { alice, bob, oldKeys, page } = await aliceMetBobsNewKey(run, async (alice) => void (before = await storedBook(alice)));
      // The other browser's line: from the book of before, saved on until it is as long as the one
      // this browser saw last (the server cannot seal a book; a browser of Alice's can).
      const forked = run.proxy.lie("GET", "/api/identities/pins", async (answer: { data: string }) => ({ ...answer, data: await otherLine(alice, before!, answer.data) }));
      const lie = olderRecordOnly(run, bob);
      await logout(page);
      await signInAs(page, alice);
      const createdBefore = run.proxy.sentTo("POST", "/api/conversations").length;
      await startConversationWith(page, bob.email, "After the fork");
      return { page, lie, forked, oldKeys, createdBefore, bobId: bob.session.id };
    },
    async refused({ page, forked, oldKeys, createdBefore }, run) {
      expect(await errorDialogText(page)).toContain(PINS_FORKED);
      await expect.poll(() => trustWarning(page, "pins_forked").textContent()).toContain(PINS_FORKED);
      expect(forked.hits).toBeGreaterThan(0);
      expect(run.proxy.sentTo("POST", "/api/conversations")).toHaveLength(createdBefore);
      expect(await openedBy(sentCopies(run.proxy.sent), oldKeys)).toEqual([]);
    },
    async works({ lie, forked, ...sealed }, run) {
      // The other line, no shorter than the book this browser saw, is taken: Bob's old key is pinned again and gets his copy.
      await sealedForOldKey(run, sealed);
      expect(forked.hits).toBeGreaterThan(0);
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
