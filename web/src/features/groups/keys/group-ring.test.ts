import { createGroupRecord, generateSymmetricKey, sealGroupEpochLink, sealGroupKey, verifyLog } from "@sealwork/crypto";
import { describe, expect, it, vi } from "vitest";
import { GROUP_ID, groupSetting } from "../../../../../packages/crypto/src/records/group-test-support";

// Texts are their keys; nothing here reaches the network.
vi.mock("../../../lib/i18n", () => ({ i18next: { t: (key: string) => key }, addTranslations: () => undefined }));
vi.mock("../../../lib/trust", () => ({ TrustError: class TrustError extends Error {} }));
vi.mock("../../../lib/api", () => ({ call: () => Promise.reject(new Error("no network in unit tests")), isApiError: () => false }));
vi.mock("../../../lib/pins", () => ({ rememberHead: () => Promise.resolve(), rememberedHead: () => Promise.resolve(undefined) }));

const { verifyRing } = await import("../../conversations");
const { groupKind } = await import("./group-ring");

/**
 * A group's ring as a member's browser verifies it (group-ring.ts on the conversations' verifyRing),
 * in the crypto package's group setting: group 7 of Alice (1, its creator and admin), Bob (2) and
 * Carol (3).
 */

const json = <T>(value: T) => value as unknown as Record<string, unknown>;

describe("a group's ring", async () => {
  const { alice, bob, carol, entries, keysOf, key, signed, copy, change, container, identities } = await groupSetting();
  const base = [...entries];
  const epoch0 = [{ epoch: 0, record: json(signed), link: null }];

  it("opens a member's key of epoch 0 when log, record and wrap verify", async () => {
    const ring = await verifyRing(groupKind(GROUP_ID), { entries: base, epochs: epoch0, copy: await copy(2) }, bob, keysOf);
    expect(ring.epoch).toBe(0);
    expect(ring.writable).toBe(true);
    expect(ring.log.admins).toEqual([1]);
  });

  it("refuses a wrap sealed by a member who is no admin (copy_invalid)", async () => {
    await expect(verifyRing(groupKind(GROUP_ID), { entries: base, epochs: epoch0, copy: { ...(await copy(3)), sealer: 2, sealerKeyId: bob.keyId } }, carol, keysOf)).rejects.toMatchObject({ reason: "copy_invalid" });
  });

  it("refuses a record naming someone the log does not have (ghost_participant)", async () => {
    const ghost = { ...signed, record: { ...signed.record, members: [...signed.record.members, { userId: 9, keyId: bob.keyId }] } };
    await expect(verifyRing(groupKind(GROUP_ID), { entries: base, epochs: [{ epoch: 0, record: json(ghost), link: null }], copy: await copy(2) }, bob, keysOf)).rejects.toMatchObject({
      reason: "ghost_participant",
    });
  });

  it("refuses a log that lacks the remembered head (log_fork)", async () => {
    const remembered = (await change("promote", bob)).head;
    entries.pop();
    await expect(verifyRing(groupKind(GROUP_ID), { entries: base, epochs: epoch0, copy: await copy(2) }, bob, keysOf, remembered)).rejects.toMatchObject({ reason: "log_fork" });
  });

  it("after a removal, the new epoch reaches the old one through the link; the removed member's old wrap opens nothing new", async () => {
    const carolsWrap = await copy(3);
    await change("remove", carol);
    const log1 = await change("rekey", null);
    const key1 = await generateSymmetricKey();
    const record1 = await createGroupRecord(key1, log1.members, log1, alice);
    const link = await sealGroupEpochLink(key1, key, { groupId: GROUP_ID, epoch: 1 });
    const epochs = [...epoch0, { epoch: 1, record: json(record1), link }];
    const after = [...entries];
    expect((await verifyLog(container, after, keysOf)).epoch).toBe(1);
    const ring = await verifyRing(groupKind(GROUP_ID), { entries: after, epochs, copy: await sealGroupKey(key1, record1.record, log1, identities.get(2)!, alice) }, bob, keysOf);
    expect(ring.epoch).toBe(1);
    await expect(ring.keyFor(0)).resolves.toBeDefined();
    // Carol presents the only wrap she ever had: it is not a copy of epoch 1 for her.
    await expect(verifyRing(groupKind(GROUP_ID), { entries: after, epochs, copy: carolsWrap }, carol, keysOf)).rejects.toMatchObject({ reason: "copy_invalid" });
  });

  it("verifies from the current epoch alone and fetches an older one when its key is needed, checked as the others", async () => {
    const log1 = await verifyLog(container, entries, keysOf);
    expect(log1.epoch).toBe(1);
    const key1 = await generateSymmetricKey();
    const record1 = await createGroupRecord(key1, log1.members, log1, alice);
    const link = await sealGroupEpochLink(key1, key, { groupId: GROUP_ID, epoch: 1 });
    const copy1 = await sealGroupKey(key1, record1.record, log1, identities.get(2)!, alice);
    const asked: number[] = [];
    const served = (record0: unknown) => ({
      ...groupKind(GROUP_ID),
      loadEpoch: async (epoch: number) => {
        asked.push(epoch);
        return epoch === 0 ? { record: json(record0), link: null } : { record: json(record1), link };
      },
    });
    const ring = await verifyRing(served(signed), { entries, epochs: [{ epoch: 1, record: json(record1), link }], copy: copy1 }, bob, keysOf);
    expect(asked).toEqual([]);
    await expect(ring.keyFor(0)).resolves.toBeDefined();
    expect(asked).toEqual([0]);
    // An older record the server makes up (someone the log never had) is refused when it arrives.
    const ghost = { ...signed, record: { ...signed.record, members: [...signed.record.members, { userId: 9, keyId: bob.keyId }] } };
    const lied = await verifyRing(served(ghost), { entries, epochs: [{ epoch: 1, record: json(record1), link }], copy: copy1 }, bob, keysOf);
    await expect(lied.keyFor(0)).rejects.toMatchObject({ reason: "ghost_participant" });
  });
});
