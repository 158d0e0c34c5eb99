import { createRootIdentity, generateAccountKeys, openConversationKey, openConversationTitle } from "@sealwork/crypto";
import { expect } from "vitest";
import { errorDialogText } from "../e2e/helpers";
import type { MaliciousSuite } from "./harness";
import { aliceAndBob, conversationWith, openedBy, rotate, sentCopies, signInAs, startConversationWith } from "./scenes";

/** Whose key is whose (issue 11, item 1): the server answers keys for a contact that are not theirs, or not their newest. */
export function keyAttacks(suite: MaliciousSuite): void {
  suite.attack("a substituted public key: the server answers a key of its own for Bob, with a valid self-signature on a root of its own", {
    check: "identity-anchors",
    async mount(run) {
      const { alice, bob } = await aliceAndBob();
      // The server's own keys, dressed as Bob's identity: a root record for his id and address.
      const serverKeys = await generateAccountKeys();
      const forged = await createRootIdentity({ userId: bob.session.id, email: bob.email, created: Date.now() }, serverKeys);
      const lie = run.proxy.lie("GET", `/api/identities/${bob.session.id}`, () => ({ chain: { userId: bob.session.id, records: [forged], issuers: [], admins: [] }, legacy: null }));
      // Alice has never met Bob: no pin, only the instance's anchors stand between her and the lie.
      const page = await run.visitor();
      await signInAs(page, alice);
      await startConversationWith(page, bob.email, "Plans for Friday");
      return { page, lie, serverKeys, bob };
    },
    async refused({ page, lie, serverKeys }, run) {
      const text = await errorDialogText(page);
      expect(text).toContain("Warning: this person's key has changed, and the change is not signed by their previous key or certified by an administrator.");
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
      const { key } = await openConversationKey(copy!.sealed, serverKeys.encrypt, { conversationId: copy!.conversationId });
      const created = run.proxy.sentTo("POST", "/api/conversations")[0]!.body as { title: string };
      expect((await openConversationTitle(key, created.title, { conversationId: copy!.conversationId })).title).toBe("Plans for Friday");
    },
  });

  suite.attack("an old key record: the server answers Bob's older identity record after Alice has seen his newer one", {
    check: "pin-seq",
    timeout: 240_000,
    async mount(run) {
      const { alice, bob } = await aliceAndBob();
      // Bob moves to a new key (seq 1, certified by his first); the server keeps the old record.
      const oldKeys = bob.keys;
      await rotate(bob);
      const page = await run.visitor();
      await signInAs(page, alice);
      // Alice meets Bob at his new key: a conversation with him pins seq 1.
      await conversationWith(page, bob.email, "First contact");
      // From now on the server answers only his first record: validly signed, but older than the pin.
      const lie = run.proxy.lie("GET", `/api/identities/${bob.session.id}`, (bundle) => ({ ...bundle, chain: { ...bundle.chain, records: bundle.chain.records.slice(0, 1) } }));
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
    async works({ lie, oldKeys, createdBefore, bobId }, run) {
      const created = () => run.proxy.sentTo("POST", "/api/conversations");
      await expect.poll(() => created().length, { timeout: 30_000 }).toBe(createdBefore + 1);
      expect(lie.hits).toBeGreaterThan(0);
      // The second conversation's copy for Bob is sealed for his old key: whoever holds that key reads along.
      const { id } = created().at(-1)!.body as { id: number };
      const copies = sentCopies(run.proxy.sent).filter((copy) => copy.conversationId === id);
      expect((await openedBy(copies, oldKeys)).map((copy) => copy.userId)).toEqual([bobId]);
    },
  });
}
