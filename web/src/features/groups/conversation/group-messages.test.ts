import type { MoteView } from "@sealwork/contracts";
import { type IdentityKeys, appendToLog, sealSignedMessage, verifyLog } from "@sealwork/crypto";
import { describe, expect, it, vi } from "vitest";
import { GROUP_ID, groupSetting } from "../../../../../packages/crypto/src/records/group-test-support";

// Texts are their keys; nothing here reaches the network.
vi.mock("../../../lib/i18n", () => ({ i18next: { t: (key: string) => key }, addTranslations: () => undefined }));
vi.mock("../../../lib/trust", () => ({ TrustError: class TrustError extends Error {} }));
vi.mock("../../../lib/api", () => ({ call: () => Promise.reject(new Error("no network in unit tests")), isApiError: () => false }));
vi.mock("../../../lib/pins", () => ({ rememberHead: () => Promise.resolve(), rememberedHead: () => Promise.resolve(undefined) }));

const { DistributionError, headCheck, verifyRing } = await import("../../conversations");
const { groupKind } = await import("../keys/group-ring");
const { openGroupMessages, sealGroupMessage } = await import("./group-messages");

/**
 * What a member's browser shows of the group's conversation when the server lies about a message
 * (docs/protocol.md, "Group messages"): group 7 of Alice (1), Bob (2) and Carol (3); Dave (4) is
 * outside it. Only a message signed by its member sender for this group and epoch is theirs.
 */
describe("a group's messages as a member opens them", async () => {
  const { bob, dave, entries, keysOf, signed, copy } = await groupSetting();
  const ring = { groupId: GROUP_ID, ...(await verifyRing(groupKind(GROUP_ID), { entries, epochs: [{ epoch: 0, record: signed as never, link: null }], copy: await copy(2) }, bob, keysOf)) };
  let next = 1;
  const mote = (from: number, body: { localid: string; payload: string; epoch: number | null; signature: string | null; sender_key_id: string | null }): MoteView => ({
    id: next++,
    source_id: from,
    timestamp: 1_700_000_000,
    ...body,
  });
  const sent = async (by: IdentityKeys, text: string, localid = `l-${next}`) => mote(by.userId, await sealGroupMessage(ring, by, localid, { text }));
  const opened = async (m: MoteView) => (await openGroupMessages(ring, [m]))[0]!;

  it("opens a member's signed message as theirs", async () => {
    const shown = await opened(await sent(bob, "Grüezi"));
    expect(shown).toMatchObject({ sourceId: 2, payload: { text: "Grüezi" }, verification: "signed", status: "sent" });
  });

  it("refuses a message re-attributed, moved to another epoch, unsigned, or under another envelope", async () => {
    const real = await sent(bob, "mine");
    const other = await sent(bob, "other");
    for (const forged of [
      { ...real, source_id: 3 },
      { ...real, epoch: 1 },
      { ...real, signature: null },
      { ...real, localid: "l-moved" },
      { ...real, payload: other.payload },
    ]) {
      expect(await opened(forged)).toMatchObject({ payload: null, verification: "invalid" });
    }
  });

  it("refuses a message signed by someone outside the group, one of another group, and a conversation's message with the same numbers", async () => {
    const outsider = { v: 2 as const, groupId: GROUP_ID, epoch: 0, senderId: dave.userId, localid: "d-1" };
    const byDave = await sealSignedMessage(ring.key, outsider, { text: "let me in" }, dave);
    expect(await opened(mote(dave.userId, { localid: "d-1", payload: byDave.envelope, epoch: 0, signature: byDave.signature, sender_key_id: byDave.senderKeyId }))).toMatchObject({ verification: "invalid" });

    for (const place of [
      { v: 2 as const, groupId: GROUP_ID + 1, epoch: 0, senderId: bob.userId, localid: "b-1" },
      { v: 2 as const, conversationId: GROUP_ID, epoch: 0, senderId: bob.userId, localid: "b-1" },
    ]) {
      const elsewhere = await sealSignedMessage(ring.key, place, { text: "from elsewhere" }, bob);
      expect(await opened(mote(bob.userId, { localid: "b-1", payload: elsewhere.envelope, epoch: 0, signature: elsewhere.signature, sender_key_id: elsewhere.senderKeyId }))).toMatchObject({
        payload: null,
        verification: "invalid",
      });
    }
  });
});

describe("the group log head a message names (docs/protocol.md §14.8, heads in messages)", async () => {
  const { alice, bob, carol, dave, container, entries, keysOf, signed, copy } = await groupSetting();
  const verified = await verifyRing(groupKind(GROUP_ID), { entries, epochs: [{ epoch: 0, record: signed as never, link: null }], copy: await copy(2) }, bob, keysOf);
  // Two histories Alice signed after the same entries: Carol promoted (shown to the sender), Dave added (served to the reader).
  const after = async (change: Parameters<typeof appendToLog>[1]) => verifyLog(container, [...entries, await appendToLog(verified.log, change, alice)], keysOf);
  const sendersLog = await after({ action: "promote", subject: { userId: carol.userId, keyId: carol.keyId }, at: 9 });
  const readersLog = await after({ action: "add", subject: { userId: dave.userId, keyId: dave.keyId }, at: 9 });
  const ring = { groupId: GROUP_ID, ...verified, checkHead: headCheck(verified.log, async () => readersLog, "groupKeys") };
  const sendersRing = { ...ring, log: sendersLog };
  let next = 1;
  const sent = async (r: typeof ring, text: string) => ({ id: next++, source_id: bob.userId, timestamp: 1_700_000_000, ...(await sealGroupMessage(r, bob, `h-${next}`, { text })) }) as MoteView;

  it("is signed with the message and stored beside it; the reader's own head passes", async () => {
    const m = await sent(ring, "same history");
    expect(m.log_head).toEqual(verified.log.head);
    expect((await openGroupMessages(ring, [m]))[0]).toMatchObject({ payload: { text: "same history" }, verification: "signed" });
  });

  it("another history at that seq refuses the page with log_fork; stripped, the message is not verified", async () => {
    const m = await sent(sendersRing, "forked");
    expect(m.log_head).toEqual(sendersLog.head);
    const refusal = await openGroupMessages(ring, [m]).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DistributionError);
    expect((refusal as InstanceType<typeof DistributionError>).reason).toBe("log_fork");
    const { log_head: _head, ...stripped } = m;
    expect((await openGroupMessages(ring, [stripped]))[0]).toMatchObject({ payload: null, verification: "invalid" });
  });
});
