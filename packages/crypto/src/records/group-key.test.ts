import { describe, expect, it } from "vitest";
import { exportSymmetricKey, generateSymmetricKey } from "../aead";
import { serializeEnvelope } from "../envelope";
import type { CryptoErrorCode } from "../errors";
import type { Key } from "../primitives";
import { sealFor } from "../seal";
import { signRecordV2 } from "../signatures";
import { expectRefusal } from "../test-support";
import { commitKey, createConversationRecord, sealSignedConversationKey, verifyConversationRecord } from "./conversation-v2";
import { conversationKeyContext } from "./conversation-key";
import { type SignedSealedKey, digest } from "./distribution";
import { openEpochLink } from "./epoch-chain";
import { GROUP_ID, groupSetting, ref } from "./group-test-support";
import {
  type GroupRecord,
  commitGroupKey,
  createGroupRecord,
  groupEpochChainAad,
  groupKeyContext,
  openGroupEpochLink,
  openGroupKey,
  parseSignedGroup,
  sealGroupEpochLink,
  sealGroupKey,
  verifyGroupRecord,
} from "./group-key";
import { verifyIdentity } from "./identity-chain";
import type { IdentityKeys } from "./identity-keys";
import { appendToLog, createLog, membershipContainer, verifyLog } from "./membership-log";
import { dockeyAad, generateRecordId, generateRecordKey, unwrapRecordKey, wrapRecordKey } from "./record-key";
import { T0, refuseEveryMutation, replaced } from "./v2-test-support";

const raw = async (key: Key) => Array.from(await exportSymmetricKey(key));

/** A copy signed by `sealer` over the group copy record, for a key of the caller's choosing (what a forger or a malicious member makes). */
async function forgedCopy(key: Key, recipient: IdentityKeys, sealer: IdentityKeys, epoch = 0, groupId = GROUP_ID): Promise<SignedSealedKey> {
  const sealed = serializeEnvelope(await sealFor(recipient.keys.encrypt.publicKey, await exportSymmetricKey(key), { context: groupKeyContext(groupId, epoch) }));
  const record = {
    type: "group-sealed-key", v: 2, groupId, epoch, recipientUserId: recipient.userId, recipientKeyId: recipient.keyId, sealedDigest: await digest(sealed), sealer: sealer.userId, sealerKeyId: sealer.keyId,
  } as const;
  return { sealed, signature: await signRecordV2(sealer.keys.sign.privateKey, record), sealer: sealer.userId, sealerKeyId: sealer.keyId };
}

describe("group key strings", () => {
  it("name the group and the epoch, apart from a conversation's", () => {
    expect(groupKeyContext(7, 0)).toBe("group-key:7:0");
    expect(groupEpochChainAad(7, 2)).toBe("group-epoch-chain:7:2");
    expect(() => groupEpochChainAad(7, 0)).toThrow(/epoch/);
    for (const bad of [0, -1, 1.5, Number.NaN, "7", null]) {
      expect(() => groupKeyContext(bad as number, 0)).toThrow(/group id/);
      expect(() => groupEpochChainAad(bad as number, 1)).toThrow(/group id/);
    }
    expect(() => groupKeyContext(7, -1)).toThrow(/epoch/);
  });

  it("commit to the key, the group and the epoch, never as a conversation's commitment", async () => {
    const key = await generateSymmetricKey();
    const commitment = await commitGroupKey(key, { groupId: 7, epoch: 0 });
    expect(await commitGroupKey(await exportSymmetricKey(key), { groupId: 7, epoch: 0 })).toBe(commitment);
    for (const other of [
      await commitGroupKey(key, { groupId: 8, epoch: 0 }),
      await commitGroupKey(key, { groupId: 7, epoch: 1 }),
      await commitKey(key, { conversationId: 7, epoch: 0 }),
    ]) {
      expect(other).not.toBe(commitment);
    }
    await expectRefusal(commitGroupKey(key, { groupId: 7 } as never), "invalid_input");
    await expectRefusal(commitGroupKey(new Uint8Array(16), { groupId: 7, epoch: 0 }), "invalid_key");
  });
});

describe("the group's membership log", () => {
  it("keeps an admin: the last admin of a group cannot leave it (a conversation's can)", async () => {
    const { alice, bob, change, log, entries, container, keysOf } = await groupSetting();
    await expectRefusal(appendToLog(await log(), { action: "leave", subject: ref(alice), at: T0 }, alice), "bad_chain");
    const forged = { ...entries.at(-1)!.record, seq: entries.length, prev: (await log()).head.hash, action: "leave" as const, subject: ref(alice), author: 1, authorKeyId: alice.keyId };
    await expectRefusal(verifyLog(container, [...entries, { record: forged, signature: await signRecordV2(alice.keys.sign.privateKey, forged) }], keysOf), "bad_chain");
    // With another admin, she may leave; a member who is not an admin always may.
    await change("promote", bob);
    expect((await change("leave", alice, alice)).admins).toEqual([2]);
    const conversation = membershipContainer("conversation", GROUP_ID);
    const first = await createLog(conversation, alice, T0);
    const alone = await appendToLog(await verifyLog(conversation, [first], keysOf), { action: "leave", subject: ref(alice), at: T0 }, alice);
    expect((await verifyLog(conversation, [first, alone], keysOf)).admins).toEqual([]);
  });

  it("refuses a forked or rolled-back log against the remembered head", async () => {
    const { dave, mallory, change, entries, container, keysOf, alice } = await groupSetting();
    const remembered = (await change("add", dave)).head;
    await expectRefusal(verifyLog(container, entries.slice(0, -1), keysOf, remembered), "log_fork");
    const other = await appendToLog(await verifyLog(container, entries.slice(0, -1), keysOf), { action: "add", subject: ref(mallory), at: T0 }, alice);
    await expectRefusal(verifyLog(container, [...entries.slice(0, -1), other], keysOf, remembered), "log_fork");
    expect((await verifyLog(container, entries, keysOf, remembered)).head).toEqual(remembered);
  });
});

describe("the signed group record", () => {
  it("names the log's members with their keys, the commitment and the head", async () => {
    const { record, alice, bob, carol, initial, key } = await groupSetting();
    expect(record).toEqual({
      type: "group",
      v: 2,
      groupId: GROUP_ID,
      epoch: 0,
      members: [ref(alice), ref(bob), ref(carol)],
      keyCommitment: await commitGroupKey(key, { groupId: GROUP_ID, epoch: 0 }),
      author: 1,
      authorKeyId: alice.keyId,
      logHead: initial.head,
    });
    expect(parseSignedGroup(JSON.parse(JSON.stringify(await createGroupRecord(key, initial.members, initial, alice)))).record).toEqual(record);
  });

  it("every field changed is refused", async () => {
    const { signed, initial, keysOf } = await groupSetting();
    const special: Record<string, CryptoErrorCode[]> = { "record.author + 1": ["untrusted_key", "bad_signature"], "record.authorKeyId bit flipped": ["untrusted_key"] };
    // A member's id changed may also unsort the list: a shape error.
    const codes = (label: string) => special[label] ?? (/^record\.members\.\d\.userId \+ 1$/.test(label) ? ["bad_signature", "malformed_record"] : undefined);
    expect(await refuseEveryMutation(signed, (value) => verifyGroupRecord(value, initial, keysOf), codes)).toBeGreaterThan(40);
  });

  it("must agree with the log: no ghost member, none left out, its epoch, its group, an admin author, a head of this log", async () => {
    const { alice, bob, mallory, initial, keysOf, signed } = await groupSetting();
    const forge = async (changes: Partial<GroupRecord>, author = alice) => {
      const record = { ...signed.record, ...changes };
      return { record, signature: await signRecordV2(author.keys.sign.privateKey, record) };
    };
    await expectRefusal(verifyGroupRecord(await forge({ members: [...signed.record.members, ref(mallory)] }), initial, keysOf), "bad_chain");
    await expectRefusal(verifyGroupRecord(await forge({ members: signed.record.members.slice(0, 2) }), initial, keysOf), "bad_chain");
    await expectRefusal(verifyGroupRecord(await forge({ epoch: 1 }), initial, keysOf), "bad_chain");
    await expectRefusal(verifyGroupRecord(await forge({ groupId: 8 }), initial, keysOf), "bad_chain");
    await expectRefusal(verifyGroupRecord(await forge({ author: 2, authorKeyId: bob.keyId }, bob), initial, keysOf), "not_permitted");
    await expectRefusal(verifyGroupRecord(await forge({ logHead: { seq: 1, hash: initial.head.hash } }), initial, keysOf), "log_fork");
  });

  it("is made only by an admin, for the log's members, with no rekey pending; a conversation's record or log is not a group's", async () => {
    const { alice, bob, carol, initial, key, keysOf, signed, change } = await groupSetting();
    await expectRefusal(createGroupRecord(key, [ref(alice), ref(bob)], initial, alice), "invalid_input");
    await expectRefusal(createGroupRecord(key, initial.members, initial, bob), "not_permitted");
    const pending = await change("remove", carol);
    await expectRefusal(createGroupRecord(await generateSymmetricKey(), pending.members, pending, alice), "invalid_input");
    // The same ids as a conversation: its log and records do not pass as the group's.
    const conversation = membershipContainer("conversation", GROUP_ID);
    const conversationLog = await verifyLog(conversation, [await createLog(conversation, alice, T0)], keysOf);
    await expectRefusal(createGroupRecord(key, conversationLog.members, conversationLog, alice), "invalid_input");
    await expectRefusal(verifyGroupRecord(signed, conversationLog, keysOf), "invalid_input");
    const asConversation = await createConversationRecord(key, conversationLog.members, conversationLog, alice);
    await expectRefusal(verifyGroupRecord(asConversation as never, initial, keysOf), "malformed_record");
    await expectRefusal(verifyConversationRecord(signed as never, conversationLog, keysOf), "malformed_record");
  });
});

describe("signed copies of the group key (wraps)", () => {
  it("each member opens the committed key; not extractable unless asked", async () => {
    const { record, key, copy, keysOf, log, alice, bob, carol } = await groupSetting();
    for (const me of [alice, bob, carol]) {
      const opened = await openGroupKey(await copy(me.userId), record, await log(), me, keysOf);
      expect(opened.extractable).toBe(false);
      await expectRefusal(exportSymmetricKey(opened), "invalid_key");
    }
    expect(await raw(await openGroupKey(await copy(2), record, await log(), bob, keysOf, { extractable: true }))).toEqual(await raw(key));
  });

  it("only an admin of the group hands out its key: a member's copy is refused, a promoted member's accepted", async () => {
    const { record, key, copy, keysOf, log, bob, carol, change, identities } = await groupSetting();
    await expectRefusal(copy(3, bob), "not_permitted");
    await expectRefusal(openGroupKey(await forgedCopy(key, carol, bob), record, await log(), carol, keysOf), "not_permitted");
    await change("promote", bob);
    const promoted = await sealGroupKey(key, record, await log(), identities.get(3)!, bob);
    expect(await raw(await openGroupKey(promoted, record, await log(), carol, keysOf, { extractable: true }))).toEqual(await raw(key));
  });

  it("refuses a copy moved to another member, group or epoch, another envelope, a conversation's copy, an outsider's key", async () => {
    const { record, key, copy, keysOf, log, alice, bob, carol, mallory, identities } = await groupSetting();
    const forBob = await copy(2);
    const verified = await log();
    await expectRefusal(openGroupKey(forBob, record, verified, carol, keysOf), "bad_signature");
    // (The log has no epoch 1, so nobody was its admin.)
    await expectRefusal(openGroupKey(forBob, { ...record, epoch: 1 }, verified, bob, keysOf), "not_permitted");
    await expectRefusal(openGroupKey(forBob, { ...record, groupId: 8 }, verified, bob, keysOf), "invalid_input");
    const other = serializeEnvelope(await sealFor(bob.keys.encrypt.publicKey, await exportSymmetricKey(key), { context: groupKeyContext(GROUP_ID, 0) }));
    await expectRefusal(openGroupKey({ ...forBob, sealed: other }, record, verified, bob, keysOf), "bad_signature");
    // A conversation 7 copy of the same key, signed by Alice, does not open as group 7's.
    const conversation = membershipContainer("conversation", GROUP_ID);
    const conversationLog = await verifyLog(conversation, [await createLog(conversation, alice, T0)], keysOf);
    const conversationRecord = await verifyConversationRecord(await createConversationRecord(key, conversationLog.members, conversationLog, alice), conversationLog, keysOf);
    const conversationCopy = await sealSignedConversationKey(key, conversationRecord, identities.get(1)!, alice);
    await expectRefusal(openGroupKey(conversationCopy, record, verified, alice, keysOf), "bad_signature");
    await expectRefusal(openGroupKey({ ...conversationCopy, sealed: serializeEnvelope(await sealFor(alice.keys.encrypt.publicKey, await exportSymmetricKey(key), { context: conversationKeyContext(GROUP_ID, 0) })) }, record, verified, alice, keysOf), "bad_signature");
    // Mallory is no member: her copy is refused, and the server naming Alice with a key it made has none verified.
    await expectRefusal(openGroupKey(await forgedCopy(key, bob, mallory), record, verified, bob, keysOf), "not_permitted");
    await expectRefusal(openGroupKey({ ...forBob, sealerKeyId: mallory.keyId }, record, verified, bob, keysOf), "untrusted_key");
    // And Mallory is not in the record: no copy for her opens.
    await expectRefusal(openGroupKey(await forgedCopy(key, mallory, alice), record, verified, mallory, keysOf), "not_permitted");
  });

  it("refuses another key from an admin (bad_commitment) and a recipient key the record does not name", async () => {
    const { record, key, keysOf, log, alice, bob, world, identities } = await groupSetting();
    await expectRefusal(openGroupKey(await forgedCopy(await generateSymmetricKey(), bob, alice), record, await log(), bob, keysOf), "bad_commitment");
    await expectRefusal(sealGroupKey(await generateSymmetricKey(), record, await log(), identities.get(2)!, alice), "bad_commitment");
    await expectRefusal(sealGroupKey(key, record, await log(), identities.get(5)!, alice), "invalid_input");
    await world.rotate(2);
    await expectRefusal(sealGroupKey(key, record, await log(), await verifyIdentity(world.chain(2), world.trust), alice), "invalid_input");
  });

  it("every field of a stored copy changed is refused", async () => {
    const { record, copy, keysOf, log, bob } = await groupSetting();
    const forBob = await copy(2);
    const verified = await log();
    const special: Record<string, CryptoErrorCode[]> = { "sealer + 1": ["not_permitted"], "sealerKeyId bit flipped": ["untrusted_key"] };
    expect(await refuseEveryMutation(forBob, (value) => openGroupKey(value, record, verified, bob, keysOf), (label) => special[label])).toBeGreaterThan(8);
    await expectRefusal(openGroupKey(replaced(forBob, ["sealer"], 2), record, verified, bob, keysOf), "not_permitted");
  });
});

/**
 * Alice removes Carol and renews the key (epoch 1, wrapped for Alice and Bob, carrying epoch 0's
 * key), then adds Dave, who gets one copy of epoch 1 and reaches epoch 0 through the chain.
 */
async function removal() {
  const s = await groupSetting();
  const { alice, carol, dave, change, keysOf, key: key0, record: record0, identities } = s;
  const carolCopy0 = await s.copy(3);
  await change("remove", carol);
  const rekeyed = await change("rekey", null);
  const key1 = await generateSymmetricKey();
  const record1 = await verifyGroupRecord(await createGroupRecord(key1, rekeyed.members, rekeyed, alice), rekeyed, keysOf);
  const link1 = await sealGroupEpochLink(key1, key0, { groupId: GROUP_ID, epoch: 1 });
  const withDave = await change("add", dave);
  const record1b = await verifyGroupRecord(await createGroupRecord(key1, withDave.members, withDave, alice), withDave, keysOf);
  const daveCopy = await sealGroupKey(key1, record1b, withDave, identities.get(4)!, alice);
  const recordId = generateRecordId();
  const dek = await generateRecordKey();
  const dockey1 = await wrapRecordKey(key1, dek, { groupId: GROUP_ID, recordId, epoch: 1 });
  return { ...s, carolCopy0, key0, record0, key1, record1, record1b, link1, daveCopy, recordId, dek, dockey1 };
}

describe("epochs: removal, the chain, and what a removed member keeps", () => {
  it("a member added later opens the current epoch from one copy and reaches the older one through the chain", async () => {
    const { daveCopy, record1b, record0, link1, log, dave, keysOf, key0, key1 } = await removal();
    const opened1 = await openGroupKey(daveCopy, record1b, await log(), dave, keysOf);
    const opened0 = await openGroupEpochLink(opened1, link1, record0, { extractable: true });
    expect(await raw(opened0)).toEqual(await raw(key0));
    expect((await openGroupEpochLink(key1, link1, record0)).extractable).toBe(false);
    // The chain is checked against the earlier record's commitment, and bound to the group.
    await expectRefusal(openGroupEpochLink(key1, await sealGroupEpochLink(key1, await generateSymmetricKey(), { groupId: GROUP_ID, epoch: 1 }), record0), "bad_commitment");
    await expectRefusal(openGroupEpochLink(key1, link1, { ...record0, groupId: 8 }), "decrypt_failed");
    await expectRefusal(openGroupEpochLink(key1, link1, { ...record0, epoch: 1 }), "decrypt_failed");
    // A group's link is not a conversation's (nor the reverse), whatever the ids.
    const asConversation = { type: "conversation", v: 2, conversationId: GROUP_ID, epoch: 0, participants: record0.members, keyCommitment: await commitKey(key0, { conversationId: GROUP_ID, epoch: 0 }), author: 1, authorKeyId: record0.authorKeyId, logHead: record0.logHead } as const;
    await expectRefusal(openEpochLink(key1, link1, asConversation), "decrypt_failed");
  });

  it("the new epoch's record and copies leave the removed member out", async () => {
    const { record1, record1b, alice, bob, dave, carol } = await removal();
    expect(record1.members).toEqual([ref(alice), ref(bob)]);
    expect(record1b.members).toEqual([ref(alice), ref(bob), ref(dave)]);
    expect(record1b.members.some((m) => m.userId === carol.userId)).toBe(false);
  });

  it("a removed member who kept every key, copy, record and link opens neither the new epoch's key nor a record key wrapped under it", async () => {
    const r = await removal();
    const { carol, alice, keysOf, log, key0, carolCopy0, record0, record1, record1b, link1, recordId, dockey1, dek, identities } = r;
    const verified = await log();
    // What Carol kept still opens epoch 0 (as it should: she was a member of it).
    const kept = await openGroupKey(carolCopy0, record0, verified, carol, keysOf, { extractable: true });
    expect(await raw(kept)).toEqual(await raw(key0));
    // Her old copy presented for epoch 1: the record does not name her.
    for (const record of [record1, record1b]) await expectRefusal(openGroupKey(carolCopy0, record, verified, carol, keysOf), "not_permitted");
    // Others' copies of epoch 1 are not for her key, even under a record that named her.
    const named = { ...record1b, members: [...record1b.members, ref(carol)].sort((a, b) => a.userId - b.userId) };
    for (const to of [1, 2]) {
      const theirs = await sealGroupKey(r.key1, record1, verified, identities.get(to)!, alice);
      await expectRefusal(openGroupKey(theirs, record1b, verified, carol, keysOf), "not_permitted");
      await expectRefusal(openGroupKey(theirs, named, verified, carol, keysOf), "bad_signature");
    }
    // Nobody can seal epoch 1 for her: the record does not name her, and a record that did is a ghost.
    await expectRefusal(sealGroupKey(r.key1, record1b, verified, identities.get(3)!, alice), "invalid_input");
    await expectRefusal(verifyGroupRecord({ record: named, signature: await signRecordV2(alice.keys.sign.privateKey, named) }, verified, keysOf), "bad_chain");
    // The chain runs backwards only: her epoch 0 key does not open the link to epoch 1, nor any copy.
    await expectRefusal(openGroupEpochLink(kept, link1, record0), "decrypt_failed");
    // A record key wrapped under epoch 1: not with epoch 0's key, under any epoch she names.
    for (const epoch of [0, 1]) await expectRefusal(unwrapRecordKey(kept, dockey1, { groupId: GROUP_ID, recordId, epoch }), "decrypt_failed");
    expect(dockeyAad(GROUP_ID, recordId, 1)).toBe(`dockey:${GROUP_ID}:${recordId}:1`);
    // Members of epoch 1 open it.
    const bobKey = await openGroupKey(await sealGroupKey(r.key1, record1, verified, identities.get(2)!, alice), record1b, verified, r.bob, keysOf);
    const bobDek = await unwrapRecordKey(bobKey, dockey1, { groupId: GROUP_ID, recordId, epoch: 1 }, { extractable: true });
    expect(await raw(bobDek)).toEqual(await raw(dek));
  });
});
