import { describe, expect, it } from "vitest";
import { exportSymmetricKey, generateSymmetricKey } from "../aead";
import { parseEnvelope, serializeEnvelope } from "../envelope";
import type { Key } from "../primitives";
import { expectRefusal } from "../test-support";
import { type ConversationRecord, commitKey, parseSignedConversation, parseSignedSealedKey } from "./conversation-v2";
import { epochChainAad, openEpochLink, sealEpochLink } from "./epoch-chain";
import { parseSignedMessage } from "./signed-message";

/** An epoch's record as far as the chain reads it: the conversation, the epoch and the commitment. */
async function recordOf(key: Key, conversationId: number, epoch: number): Promise<ConversationRecord> {
  return {
    type: "conversation",
    v: 2,
    conversationId,
    epoch,
    participants: [{ userId: 1, keyId: "AAAAAAAAAAAAAAAAAAAAAA" }],
    keyCommitment: await commitKey(key, { conversationId, epoch }),
    author: 1,
    authorKeyId: "AAAAAAAAAAAAAAAAAAAAAA",
    logHead: { seq: 0, hash: "A".repeat(43) },
  };
}

describe("the epoch chain", () => {
  it("names the conversation and the epoch that carries the link", () => {
    expect(epochChainAad(42, 1)).toBe("epoch-chain:42:1");
    expect(() => epochChainAad(42, 0)).toThrow(/epoch/);
    expect(() => epochChainAad(0, 1)).toThrow(/conversation/);
  });

  it("gives the previous epoch's key back to whoever holds the new one, checked against its commitment", async () => {
    const [k0, k1, k2] = await Promise.all([generateSymmetricKey(), generateSymmetricKey(), generateSymmetricKey()]);
    const link1 = await sealEpochLink(k1, k0, { conversationId: 42, epoch: 1 });
    const link2 = await sealEpochLink(k2, k1, { conversationId: 42, epoch: 2 });
    const opened1 = await openEpochLink(k2, link2, await recordOf(k1, 42, 1), { extractable: true });
    expect(await exportSymmetricKey(opened1)).toEqual(await exportSymmetricKey(k1));
    const opened0 = await openEpochLink(opened1, link1, await recordOf(k0, 42, 0));
    // Not extractable unless asked for: a chained key is for reading.
    expect(opened0.extractable).toBe(false);
    await expectRefusal(exportSymmetricKey(opened0));
  });

  it("refuses a link of another epoch or conversation, under another key, or with a key the record does not commit to", async () => {
    const [k0, k1, other] = await Promise.all([generateSymmetricKey(), generateSymmetricKey(), generateSymmetricKey()]);
    const link = await sealEpochLink(k1, k0, { conversationId: 42, epoch: 1 });
    await expectRefusal(openEpochLink(k1, link, await recordOf(k0, 43, 0)), "decrypt_failed");
    await expectRefusal(openEpochLink(k1, await sealEpochLink(k1, k0, { conversationId: 42, epoch: 2 }), await recordOf(k0, 42, 0)), "decrypt_failed");
    await expectRefusal(openEpochLink(other, link, await recordOf(k0, 42, 0)), "decrypt_failed");
    // A participant who puts another key into the chain: it opens, and the commitment catches it.
    const wrong = await sealEpochLink(k1, other, { conversationId: 42, epoch: 1 });
    await expectRefusal(openEpochLink(k1, wrong, await recordOf(k0, 42, 0)), "bad_commitment");
    // A changed byte of the envelope.
    const env = parseEnvelope(link, "aead");
    const flipped = serializeEnvelope({ ...env, ct: env.ct.slice(0, -2) + (env.ct.endsWith("A") ? "BA" : "AA") });
    await expectRefusal(openEpochLink(k1, flipped, await recordOf(k0, 42, 0)), "decrypt_failed", "malformed_envelope");
    await expectRefusal(openEpochLink(k1, "not an envelope", await recordOf(k0, 42, 0)));
  });
});

describe("shape checks for the server", () => {
  it("take well-formed records and refuse the rest as malformed_record", async () => {
    const key = await generateSymmetricKey();
    const record = await recordOf(key, 42, 0);
    const signature = "x".repeat(100);
    expect(parseSignedConversation({ record, signature }).record.conversationId).toBe(42);
    expect(() => parseSignedConversation({ record: { ...record, extra: 1 }, signature })).toThrow(/conversation record/);
    expect(() => parseSignedConversation({ record, signature, more: 1 })).toThrow();
    const copy = { sealed: "{}", signature, sealer: 1, sealerKeyId: "AAAAAAAAAAAAAAAAAAAAAA" };
    expect(parseSignedSealedKey(copy).sealer).toBe(1);
    expect(() => parseSignedSealedKey({ ...copy, sealer: 0 })).toThrow(/sealed copy/);
    expect(parseSignedMessage({ envelope: "{}", signature, senderKeyId: "AAAAAAAAAAAAAAAAAAAAAA" }).senderKeyId).toHaveLength(22);
    expect(() => parseSignedMessage({ envelope: "{}", signature, senderKeyId: "short" })).toThrow(/signed message/);
  });
});
