import { describe, expect, it } from "vitest";
import { exportSymmetricKey, importSymmetricKey } from "../aead";
import { type AccountKeys, accountPublicKeys, keyPairFromSeed } from "../account-keys";
import { hexEncode, utf8Decode, utf8Encode } from "../bytes";
import { keyId, safetyNumber } from "../digests";
import { expectRefusal, hex } from "../test-support";
import vectors from "../vectors.json";
import { openEpochLink, sealEpochLinkWith } from "./epoch-chain";
import { commitKey, createConversationRecord, openSignedConversationKey, sealSignedConversationKeyWith, verifyConversationRecord } from "./conversation-v2";
import { type SignedAdmin, type SignedIdentity, type SignedKeyReset, createInvitation, createInvitedIdentity, createKeyReset, createLegacyIdentity, createResetIdentity, createRootIdentity, grantAdmin, rotateIdentity } from "./identity";
import { type IdentityChain, verifyIdentity, verifyKeyReset } from "./identity-chain";
import { checkPin } from "./identity-pin";
import { identityKeys, keyLookup } from "./identity-keys";
import { type SignedLegacyKey, type SignedLegacyRule, certifyLegacyKey, createLegacyRule, verifyLegacyKey, verifyLegacyRule } from "./legacy-key";
import { membershipFingerprint } from "./membership-fingerprint";
import { type MembershipEntry, type SignedMembershipEntry, type VerifiedLog, appendToLog, createLog, entryHash, verifyLog } from "./membership-log";
import { type MessagePayload, openMessage, sealMessageWith } from "./message";
import { checkMessageHead, openSignedMessage, sealSignedMessageWith } from "./signed-message";
import { commitGroupKey, createGroupRecord, openGroupEpochLink, openGroupKey, sealGroupEpochLinkWith, sealGroupKeyWith, verifyGroupRecord } from "./group-key";
import { driveItemPayloadSchema, openDriveItem } from "./drive-item";
import { commentPayloadSchema, motePayloadSchema, openComment, openCommentForPage, openMote, openMoteForPage } from "./mote";
import { grantRecordKeyWith, openRecordGrant, openRecordPayload, sealRecordPayloadWith, unwrapRecordKey, wrapRecordKeyWith } from "./record-key";
import {
  type PageKeyCopy,
  openPageKey,
  openPageKeyLink,
  pageDockeyAad,
  pageKeyChainAad,
  pageKeyContext,
  pageKeyLinkDigest,
  sealPageKeyLinkWith,
  sealPageKeyWith,
  unwrapRecordKeyForPage,
  wrapRecordKeyForPageWith,
} from "./page-key";

// Protocol v2 against the second implementation (scripts/make-vectors.mjs on node:crypto): every
// record and signature made here from the same seeds and times must be the same to the byte.

const v = vectors.v2;
const ids = v.identities;
const jurgAdmin = ids.jurgAdmin as SignedAdmin;
type Name = keyof typeof v.seeds;

async function keysOf(name: Name): Promise<AccountKeys> {
  const seed = v.seeds[name];
  return { encrypt: await keyPairFromSeed(hex(seed.x25519), "X25519"), sign: await keyPairFromSeed(hex(seed.ed25519), "Ed25519") };
}
const me = async (userId: number, name: Name) => identityKeys(userId, await keysOf(name));
const textOf = (t: { text: string; utf8: string }) => utf8Decode(hex(t.utf8));
const { T0, DAY } = ids.times;

/** Carol's chain as a server serves it, and the instance's pinned root. */
const carolChain: IdentityChain = { userId: 3, records: ids.carol as never, issuers: [{ userId: 1, records: [ids.root as never] }, { userId: 2, records: [ids.jurg as never] }], admins: [jurgAdmin] };
const trust = { anchors: [v.keyIds.root] };
const chainOf = (userId: number): IdentityChain =>
  userId === 3 ? carolChain : userId === 1 ? { userId, records: [ids.root as never] } : { userId, records: [ids.jurg as never], issuers: [{ userId: 1, records: [ids.root as never] }], admins: [jurgAdmin] };
const lookup = async () => keyLookup(await Promise.all([1, 2, 3].map((user) => verifyIdentity(chainOf(user), trust))));

describe("protocol v2 vectors", () => {
  it("key ids and safety numbers", async () => {
    for (const name of Object.keys(v.seeds) as Name[]) {
      expect(await accountPublicKeys(await keysOf(name))).toEqual(v.publicKeys[name]);
      expect(await keyId(v.publicKeys[name])).toBe(v.keyIds[name]);
    }
    for (const s of v.safetyNumbers) {
      expect(await safetyNumber(s.a, s.b)).toBe(s.number);
      expect(await safetyNumber(s.b, s.a)).toBe(s.number);
    }
  });

  it("identity records, invitations and the admin certificate, made from the same seeds", async () => {
    expect(hexEncode(utf8Encode(ids.jurgEmailTyped.text))).toBe(ids.jurgEmailTyped.utf8);
    const root = await me(1, "root");
    expect(await createRootIdentity({ userId: 1, email: "root@example.org", created: T0 }, root.keys)).toEqual(ids.root);
    const temp = await keysOf("jurgTemp");
    const invitation = await createInvitation({ inviteId: 102, email: textOf(ids.jurgEmailTyped), temp: await accountPublicKeys(temp), expires: T0 + 30 * DAY }, root);
    expect(invitation).toEqual(ids.inviteJurg);
    expect(invitation.record.email).toBe(textOf(ids.jurgEmail));
    const jurg = await me(2, "jurg");
    expect(await createInvitedIdentity({ userId: 2, created: T0 + DAY, invitation }, jurg.keys, temp)).toEqual(ids.jurg);
    expect(await grantAdmin({ userId: 2, keyId: jurg.keyId, granted: T0 + 2 * DAY }, root)).toEqual(ids.jurgAdmin);
    const carolTemp = await keysOf("carolTemp");
    const inviteCarol = await createInvitation({ inviteId: 103, email: "carol@example.org", temp: await accountPublicKeys(carolTemp), expires: T0 + 31 * DAY }, jurg);
    expect(inviteCarol).toEqual(ids.inviteCarol);
    const carol = await keysOf("carol");
    const birth = await createInvitedIdentity({ userId: 3, created: T0 + 3 * DAY, invitation: inviteCarol }, carol, carolTemp);
    expect(birth).toEqual(ids.carol[0]);
    expect(await rotateIdentity(birth, carol, { created: T0 + 4 * DAY }, await keysOf("carolNext"))).toEqual(ids.carol[1]);
  });

  it("Carol's chain verifies to the pinned root, and not without it or without Jürg's certificate", async () => {
    const carol = await verifyIdentity(carolChain, trust);
    const expected = ids.carolVerified;
    expect({ userId: carol.userId, seq: carol.seq, keyId: carol.keyId, anchor: carol.anchor, admin: carol.admin, keys: carol.keys.map((k) => k.keyId) }).toEqual(expected);
    await expectRefusal(verifyIdentity(carolChain, { anchors: [v.keyIds.jurg] }), "untrusted_key");
    await expectRefusal(verifyIdentity({ ...carolChain, admins: [] }, trust), "untrusted_key");
    expect((await verifyIdentity(chainOf(2), trust)).admin).toBe(true);
  });

  it("Carol's key reset by Jürg: the reset, her record after it, and the chain through it", async () => {
    const temp = await keysOf("carolResetTemp");
    const reset = await createKeyReset({ userId: 3, current: ids.carol[1] as SignedIdentity, temp: await accountPublicKeys(temp), expires: T0 + 40 * DAY }, await me(2, "jurg"));
    expect(reset).toEqual(ids.carolReset);
    expect(await createResetIdentity({ current: ids.carol[1] as SignedIdentity, created: T0 + 7 * DAY, reset }, await keysOf("carolAfterReset"), temp)).toEqual(ids.carolAfterReset);
    expect((await verifyKeyReset(ids.carolReset as SignedKeyReset, 3, chainOf(2), trust, T0)).userId).toBe(2);
    const after = await verifyIdentity({ ...carolChain, records: [...carolChain.records, ids.carolAfterReset as never] }, trust);
    expect({ seq: after.seq, keyId: after.keyId, resets: after.keys.map((k) => k.reset ?? false) }).toEqual({ seq: 2, keyId: v.keyIds.carolAfterReset, resets: [false, false, true] });
  });

  it("Vera's version 1 key certified by Jürg, and the root's legacy rule", async () => {
    const vera = { userId: 7, ...v.publicKeys.vera };
    const jurg = await me(2, "jurg");
    const certificate = await certifyLegacyKey({ userId: 7, keys: v.publicKeys.vera, anchor: v.keyIds.root, certified: T0 + 5 * DAY }, jurg);
    expect(certificate).toEqual(ids.veraCertificate);
    expect(await verifyLegacyKey(ids.veraCertificate as SignedLegacyKey, vera, chainOf(2), trust)).toMatchObject({ userId: 7, keyId: v.keyIds.vera, anchor: v.keyIds.root });
    await expectRefusal(verifyLegacyKey(ids.veraCertificate as SignedLegacyKey, vera, { ...chainOf(2), admins: [] }, trust), "untrusted_key");
    const rule = await createLegacyRule({ made: T0 + 6 * DAY }, await me(1, "root"));
    expect(rule).toEqual(ids.legacyRule);
    expect(await verifyLegacyRule(ids.legacyRule as SignedLegacyRule, [ids.root as never], trust)).toBe(v.keyIds.root);
  });

  it("Vera's birth record certified by her certified v1 key, and her v1 pin moving to it", async () => {
    const birth = await createLegacyIdentity(
      { userId: 7, email: "vera@example.org", created: T0 + 8 * DAY, certificate: ids.veraCertificate as SignedLegacyKey },
      await keysOf("veraIdentity"),
      await keysOf("vera"),
    );
    expect(birth).toEqual(ids.veraBirth);
    const chain: IdentityChain = { userId: 7, records: [ids.veraBirth as never], issuers: [{ userId: 1, records: [ids.root as never] }, { userId: 2, records: [ids.jurg as never] }], admins: [jurgAdmin] };
    const identity = await verifyIdentity(chain, trust);
    expect({ seq: identity.seq, keyId: identity.keyId, anchor: identity.anchor, legacy: identity.keys[0]!.legacy }).toEqual({ seq: 0, keyId: v.keyIds.veraIdentity, anchor: v.keyIds.root, legacy: v.keyIds.vera });
    expect(checkPin({ userId: 7, keyId: v.keyIds.vera, seq: 0, verified: true }, identity)).toEqual({ status: "rotated", pin: { userId: 7, keyId: v.keyIds.veraIdentity, seq: 0, verified: true } });
    // Without Jürg's admin certificate the v1 key's certificate does not chain.
    await expectRefusal(verifyIdentity({ ...chain, admins: [] }, trust), "untrusted_key");
  });

  it("the membership log: the same entries, hashes and state", async () => {
    const keys = await lookup();
    const log = v.membershipLog;
    const authors = { 1: await me(1, "root"), 2: await me(2, "jurg") } as const;
    const made: SignedMembershipEntry[] = [];
    let state: VerifiedLog | undefined;
    for (const expected of log.entries) {
      const record = expected.record as MembershipEntry;
      const author = authors[record.author as 1 | 2];
      const next = state ? await appendToLog(state, { action: record.action as "add", subject: record.subject, at: record.at }, author) : await createLog(log.container, author, record.at);
      expect(next).toEqual(expected);
      expect(await entryHash(next)).toBe(log.hashes[made.length]);
      made.push(next);
      state = await verifyLog(log.container, made, keys);
    }
    const verified = await verifyLog(log.container, log.entries as SignedMembershipEntry[], keys, log.state.head);
    expect({ epoch: verified.epoch, members: verified.members, admins: verified.admins, needsRekey: verified.needsRekey, head: verified.head }).toEqual(log.state);
    // Its membership fingerprint, from the verified log itself.
    expect(await membershipFingerprint(verified)).toBe(v.membershipFingerprints[0]!.fingerprint);
  });

  it("the conversation record, its commitment, a signed copy of the key, and signed messages", async () => {
    const keys = await lookup();
    const c = v.conversation;
    const log = await verifyLog(v.membershipLog.container, v.membershipLog.entries as SignedMembershipEntry[], keys);
    const key = await importSymmetricKey(hex(c.key));
    const place = { conversationId: 42, epoch: 1 };
    expect(await commitKey(key, place)).toBe(c.commitment);
    const jurg = await me(2, "jurg");
    expect(await createConversationRecord(key, log.members, log, jurg)).toEqual(c.record);
    const record = await verifyConversationRecord(c.record as never, log, keys);

    const root = await me(1, "root");
    const rootKey = (await verifyIdentity(chainOf(1), trust)).keys[0]!;
    const ephemeral = await keyPairFromSeed(hex(vectors.seeds.ephemeralX25519), "X25519");
    const copy = await sealSignedConversationKeyWith(key, record, rootKey, jurg, { ephemeral, nonce: hex(c.copy.nonce) });
    expect(copy).toEqual({ sealed: c.copy.sealed, signature: c.copy.signature, sealer: c.copy.sealer, sealerKeyId: c.copy.sealerKeyId });
    const opened = await openSignedConversationKey(copy, record, root, keys);
    expect(hexEncode(await exportSymmetricKey(opened))).toBe(c.key);
    await expectRefusal(openSignedConversationKey(copy, { ...record, epoch: 0 }, root, keys), "bad_signature");

    for (const m of c.messages) {
      const messagePlace = { v: 2 as const, ...m.place };
      const payload = JSON.parse(textOf(m.json)) as MessagePayload;
      const reordered = Object.fromEntries(Object.entries(payload).reverse()) as MessagePayload;
      if (m.signature && m.senderKeyId) {
        const sender = m.place.senderId === 2 ? jurg : root;
        const signed = { envelope: m.envelope, signature: m.signature, senderKeyId: m.senderKeyId };
        expect(await sealSignedMessageWith(key, messagePlace, reordered, sender, hex(m.nonce))).toEqual(signed);
        expect(await openSignedMessage(key, signed, messagePlace, keys)).toEqual(payload);
        await expectRefusal(openSignedMessage(key, signed, { ...messagePlace, epoch: 0 }, keys), "bad_signature");
      } else {
        expect(await sealMessageWith(key, messagePlace, reordered, hex(m.nonce))).toBe(m.envelope);
        expect(await openMessage(key, m.envelope, messagePlace)).toEqual(payload);
      }
    }

    // A message naming the log head its sender verified: signed with it, checked against the log.
    for (const m of c.messagesWithHead) {
      const messagePlace = { v: 2 as const, ...m.place };
      const signed = { envelope: m.envelope, signature: m.signature, senderKeyId: m.senderKeyId, logHead: m.logHead };
      expect(m.logHead).toEqual(v.membershipLog.state.head);
      expect(await sealSignedMessageWith(key, messagePlace, JSON.parse(textOf(m.json)) as MessagePayload, jurg, hex(m.nonce), m.logHead)).toEqual(signed);
      expect(await openSignedMessage(key, signed, messagePlace, keys)).toEqual(JSON.parse(textOf(m.json)));
      expect(await checkMessageHead(signed, messagePlace, log)).toBe(log);
      const { logHead: _stripped, ...without } = signed;
      await expectRefusal(openSignedMessage(key, without, messagePlace, keys), "bad_signature");
    }

    // Epoch 1's key carries epoch 0's.
    const l = c.epochLink;
    const previous = await importSymmetricKey(hex(l.previousKey));
    expect(await sealEpochLinkWith(key, previous, place, hex(l.nonce))).toBe(l.envelope);
    const earlier = { ...record, epoch: 0, keyCommitment: l.previousCommitment };
    expect(hexEncode(await exportSymmetricKey(await openEpochLink(key, l.envelope, earlier, { extractable: true })))).toBe(l.previousKey);
    await expectRefusal(openEpochLink(key, l.envelope, { ...earlier, keyCommitment: c.commitment }), "bad_commitment");
  });

  it("group 7: its log, the epoch's record, an admin's copy, the chain, a dockey, payloads and a signed grant", async () => {
    const keys = await lookup();
    const g = v.group;
    const authors = { 1: await me(1, "root"), 2: await me(2, "jurg") } as const;
    const made: SignedMembershipEntry[] = [];
    for (const expected of g.log.entries) {
      const record = expected.record as MembershipEntry;
      const author = authors[record.author as 1 | 2];
      const next = made.length > 0 ? await appendToLog(await verifyLog(g.log.container, made, keys), { action: record.action as "add", subject: record.subject, at: record.at }, author) : await createLog(g.log.container, author, record.at);
      expect(next).toEqual(expected);
      expect(await entryHash(next)).toBe(g.log.hashes[made.length]);
      made.push(next);
    }
    const log = await verifyLog(g.log.container, made, keys, g.log.state.head);
    expect({ epoch: log.epoch, members: log.members, admins: log.admins, needsRekey: log.needsRekey, head: log.head }).toEqual(g.log.state);
    expect(await membershipFingerprint(log)).toBe(v.membershipFingerprints[1]!.fingerprint);

    const [key0, key1] = await Promise.all(g.keys.map((k) => importSymmetricKey(hex(k))));
    expect([await commitGroupKey(key0!, { groupId: 7, epoch: 0 }), await commitGroupKey(key1!, { groupId: 7, epoch: 1 })]).toEqual(g.commitments);
    const jurg = authors[2];
    expect(await createGroupRecord(key1!, log.members, log, jurg)).toEqual(g.record);
    const record = await verifyGroupRecord(g.record as never, log, keys);

    const root = authors[1];
    const ephemeral = await keyPairFromSeed(hex(vectors.seeds.ephemeralX25519), "X25519");
    const rootKey = (await verifyIdentity(chainOf(1), trust)).keys[0]!;
    const copy = await sealGroupKeyWith(key1!, record, log, rootKey, jurg, { ephemeral, nonce: hex(g.copy.nonce) });
    expect(copy).toEqual({ sealed: g.copy.sealed, signature: g.copy.signature, sealer: g.copy.sealer, sealerKeyId: g.copy.sealerKeyId });
    expect(hexEncode(await exportSymmetricKey(await openGroupKey(copy, record, log, root, keys, { extractable: true })))).toBe(g.keys[1]);
    await expectRefusal(openGroupKey(copy, { ...record, epoch: 0 }, log, root, keys), "bad_signature");

    expect(await sealGroupEpochLinkWith(key1!, key0!, { groupId: 7, epoch: 1 }, hex(g.epochLink.nonce))).toBe(g.epochLink.envelope);
    const earlier = { ...record, epoch: 0, keyCommitment: g.commitments[0]! };
    expect(hexEncode(await exportSymmetricKey(await openGroupEpochLink(key1!, g.epochLink.envelope, earlier, { extractable: true })))).toBe(g.keys[0]);

    const r = g.recordKey;
    const place = { groupId: 7, recordId: r.recordId };
    const dek = await importSymmetricKey(hex(r.dek));
    expect(await wrapRecordKeyWith(key1!, dek, { ...place, epoch: 1 }, hex(r.dockey.nonce))).toBe(r.dockey.envelope);
    expect(hexEncode(await exportSymmetricKey(await unwrapRecordKey(key1!, r.dockey.envelope, { ...place, epoch: 1 }, { extractable: true })))).toBe(r.dek);
    await expectRefusal(unwrapRecordKey(key0!, r.dockey.envelope, { ...place, epoch: 1 }), "decrypt_failed");
    for (const p of r.payloads) {
      expect(hexEncode(utf8Encode(p.text.text))).toBe(p.text.utf8);
      expect(await sealRecordPayloadWith(dek, place, hex(p.text.utf8), hex(p.nonce))).toBe(p.envelope);
      expect(utf8Decode(await openRecordPayload(dek, p.envelope, place))).toBe(textOf(p.text));
    }
    // The record as a drive folder: its payload's JSON text (keys in the schema's order) under the DEK.
    const d = r.driveItem;
    expect(JSON.stringify(driveItemPayloadSchema.parse(d.payload))).toBe(textOf(d.json));
    expect(await sealRecordPayloadWith(dek, place, utf8Encode(textOf(d.json)), hex(d.nonce))).toBe(d.envelope);
    expect(await openDriveItem(key1!, { payload: d.envelope, dockey: r.dockey.envelope }, { ...place, epoch: 1 }, "folder")).toEqual(d.payload);
    await expectRefusal(openDriveItem(key1!, { payload: d.envelope, dockey: r.dockey.envelope }, { ...place, epoch: 1 }, "drive"), "invalid_payload");
    // The record as a card (mote): the editor payload's JSON text with a custom field, under the DEK.
    const mv = r.mote;
    expect(JSON.stringify(motePayloadSchema.parse(mv.payload))).toBe(textOf(mv.json));
    expect(await sealRecordPayloadWith(dek, place, utf8Encode(textOf(mv.json)), hex(mv.nonce))).toBe(mv.envelope);
    expect(await openMote(key1!, { payload: mv.envelope, dockey: r.dockey.envelope }, { ...place, epoch: 1 })).toEqual(mv.payload);
    await expectRefusal(openComment(key1!, { payload: mv.envelope, dockey: r.dockey.envelope }, { ...place, epoch: 1 }), "invalid_payload");
    // A comment on it: its own record id and key, its key under epoch 1.
    const cv = r.comment;
    const commentPlace = { groupId: 7, recordId: cv.recordId };
    const commentDek = await importSymmetricKey(hex(cv.dek));
    expect(JSON.stringify(commentPayloadSchema.parse(cv.payload))).toBe(textOf(cv.json));
    expect(await wrapRecordKeyWith(key1!, commentDek, { ...commentPlace, epoch: 1 }, hex(cv.dockey.nonce))).toBe(cv.dockey.envelope);
    expect(await sealRecordPayloadWith(commentDek, commentPlace, utf8Encode(textOf(cv.json)), hex(cv.nonce))).toBe(cv.envelope);
    expect(await openComment(key1!, { payload: cv.envelope, dockey: cv.dockey.envelope }, { ...commentPlace, epoch: 1 })).toEqual(cv.payload);
    await expectRefusal(openComment(key1!, { payload: cv.envelope, dockey: cv.dockey.envelope }, { ...place, epoch: 1 }), "decrypt_failed");
    const carol = await me(3, "carolNext");
    const carolKey = (await verifyIdentity(chainOf(3), trust)).keys[1]!;
    const grant = await grantRecordKeyWith(dek, place, log, carolKey, root, { ephemeral, nonce: hex(r.grant.nonce) });
    expect(grant).toEqual({ sealed: r.grant.sealed, signature: r.grant.signature, sealer: r.grant.sealer, sealerKeyId: r.grant.sealerKeyId });
    expect(hexEncode(await exportSymmetricKey(await openRecordGrant(grant, place, log, carol, keys, { extractable: true })))).toBe(r.dek);
    await expectRefusal(openRecordGrant(grant, { ...place, recordId: "AAAAAAAAAAAAAAAAAAAAAA" }, log, carol, keys), "bad_signature");

    // A message of the group's own conversation, signed by Jürg under epoch 1.
    const m = g.message;
    const messagePlace = { v: 2 as const, ...m.place };
    const signed = { envelope: m.envelope, signature: m.signature, senderKeyId: m.senderKeyId };
    expect(await sealSignedMessageWith(key1!, messagePlace, JSON.parse(textOf(m.json)) as MessagePayload, jurg, hex(m.nonce))).toEqual(signed);
    expect(await openSignedMessage(key1!, signed, messagePlace, keys)).toEqual(JSON.parse(textOf(m.json)));
    await expectRefusal(openSignedMessage(key1!, signed, { v: 2, conversationId: 7, epoch: 1, senderId: 2, localid: m.place.localid }, keys), "bad_signature");
    // And one naming the head of the group's log.
    const h = g.messageWithHead;
    const headPlace = { v: 2 as const, ...h.place };
    const withHead = { envelope: h.envelope, signature: h.signature, senderKeyId: h.senderKeyId, logHead: h.logHead };
    expect(await sealSignedMessageWith(key1!, headPlace, JSON.parse(textOf(h.json)) as MessagePayload, jurg, hex(h.nonce), g.log.state.head)).toEqual(withHead);
    expect(await openSignedMessage(key1!, withHead, headPlace, keys)).toEqual(JSON.parse(textOf(h.json)));
    expect(await checkMessageHead(withHead, headPlace, log)).toBe(log);
    await expectRefusal(openSignedMessage(key1!, { ...withHead, logHead: { ...h.logHead, seq: 4 } }, headPlace, keys), "bad_signature");
  });

  it("group 7's restricted page 31: signed copies covering their link, the links of generations 2 and 3, a card and a comment under page keys", async () => {
    const keys = await lookup();
    const g = v.group;
    const p = g.pageKey;
    const log = await verifyLog(g.log.container, g.log.entries as SignedMembershipEntry[], keys, g.log.state.head);
    const place = (generation: number) => ({ groupId: 7, pageId: p.pageId, generation });
    const pageKeys = await Promise.all(p.keys.map((k) => importSymmetricKey(hex(k), { extractable: true })));
    const keyOf = (generation: number) => pageKeys[generation - 1]!;

    // The links: generation 2's holds generation 1's key; generation 3's holds generation 2's and the digest of generation 2's link.
    let carried: string | null = null;
    for (const l of p.links) {
      expect(pageKeyChainAad(place(l.generation))).toBe(l.aad);
      expect(await pageKeyLinkDigest(l.envelope)).toBe(l.digest);
      expect(await sealPageKeyLinkWith(keyOf(l.generation), { key: keyOf(l.generation - 1), linkDigest: carried }, place(l.generation), hex(l.nonce))).toBe(l.envelope);
      const back = await openPageKeyLink({ key: keyOf(l.generation), linkDigest: l.digest }, l.envelope, place(l.generation), { extractable: true });
      expect(hexEncode(await exportSymmetricKey(back.key))).toBe(p.keys[l.generation - 2]);
      expect(back.linkDigest).toBe(carried);
      await expectRefusal(openPageKeyLink({ key: keyOf(l.generation), linkDigest: carried ?? p.links[1]!.digest }, l.envelope, place(l.generation)), "bad_chain");
      carried = l.digest;
    }

    // Jürg's copies for the root user: the signed record covers the link digest (none for the first generation).
    const jurg = await me(2, "jurg");
    const root = await me(1, "root");
    const rootKey = (await verifyIdentity(chainOf(1), trust)).keys[0]!;
    const ephemeral = await keyPairFromSeed(hex(vectors.seeds.ephemeralX25519), "X25519");
    for (const c of p.copies) {
      expect(pageKeyContext(place(c.generation))).toBe(`pagekey:7:${p.pageId}:${c.generation}`);
      const copy = await sealPageKeyWith(keyOf(c.generation), place(c.generation), c.linkDigest, log, rootKey, jurg, { ephemeral, nonce: hex(c.nonce) });
      expect(copy).toEqual({ sealed: c.sealed, signature: c.signature, sealer: c.sealer, sealerKeyId: c.sealerKeyId, linkDigest: c.linkDigest });
      const opened = await openPageKey(copy, place(c.generation), log, root, keys, { extractable: true });
      expect(hexEncode(await exportSymmetricKey(opened.key))).toBe(p.keys[c.generation - 1]);
      expect(opened.linkDigest).toBe(c.linkDigest);
      await expectRefusal(openPageKey(copy as PageKeyCopy, { ...place(c.generation), pageId: p.pageId + 1 }, log, root, keys), "bad_signature");
    }
    const third = p.copies[1]!;
    await expectRefusal(openPageKey({ sealed: third.sealed, signature: third.signature, sealer: 2, sealerKeyId: third.sealerKeyId, linkDigest: p.links[0]!.digest }, place(3), log, root, keys), "bad_signature");

    // A card under generation 1 and a comment under generation 3: their dockeys under the page key, their payloads under their own keys.
    for (const [r, open, schema] of [
      [p.mote, openMoteForPage, motePayloadSchema],
      [p.comment, openCommentForPage, commentPayloadSchema],
    ] as const) {
      const recordPlace = { groupId: 7, recordId: r.recordId, pageId: p.pageId, generation: r.generation };
      expect(pageDockeyAad(recordPlace)).toBe(r.dockey.aad);
      const dek = await importSymmetricKey(hex(r.dek), { extractable: true });
      expect(JSON.stringify(schema.parse(r.payload))).toBe(textOf(r.json));
      expect(await wrapRecordKeyForPageWith(keyOf(r.generation), dek, recordPlace, hex(r.dockey.nonce))).toBe(r.dockey.envelope);
      expect(hexEncode(await exportSymmetricKey(await unwrapRecordKeyForPage(keyOf(r.generation), r.dockey.envelope, recordPlace, { extractable: true })))).toBe(r.dek);
      expect(await sealRecordPayloadWith(dek, { groupId: 7, recordId: r.recordId }, utf8Encode(textOf(r.json)), hex(r.nonce))).toBe(r.envelope);
      expect(await open(keyOf(r.generation), { payload: r.envelope, dockey: r.dockey.envelope }, recordPlace)).toEqual(r.payload);
      await expectRefusal(open(keyOf(r.generation), { payload: r.envelope, dockey: r.dockey.envelope }, { ...recordPlace, generation: 2 }), "decrypt_failed");
    }
    // The group key of the same epoch opens nothing of the card.
    await expectRefusal(openMote(await importSymmetricKey(hex(g.keys[1]!)), { payload: p.mote.envelope, dockey: p.mote.dockey.envelope }, { groupId: 7, recordId: p.mote.recordId, epoch: 1 }), "decrypt_failed");
  });
});
