import type { RecordMoteView } from "@sealwork/contracts";
import { type Key, type MotePayload, generateRecordId, generateSymmetricKey, sealComment, sealMote } from "@sealwork/crypto";
import { describe, expect, it, vi } from "vitest";
import type { OpeningRing } from "./open-records";

// Texts are their keys; nothing here reaches the network.
vi.mock("../../../lib/i18n", () => ({ i18next: { t: (key: string) => key }, addTranslations: () => undefined }));
vi.mock("../../../lib/trust", () => ({ TrustError: class TrustError extends Error {} }));
vi.mock("../../../lib/api", () => ({ call: () => Promise.reject(new Error("no network in unit tests")), isApiError: () => false }));
vi.mock("../../../lib/pins", () => ({ rememberHead: () => Promise.resolve(), rememberedHead: () => Promise.resolve(undefined) }));

const { openComments, openRecords } = await import("./open-records");

const GROUP = 7;

async function ringOf(keys: Key[]): Promise<OpeningRing> {
  return { groupId: GROUP, epoch: keys.length - 1, keyFor: async (epoch: number) => keys[epoch]! };
}

async function viewOf(key: Key, payload: MotePayload, over: Partial<RecordMoteView> = {}): Promise<RecordMoteView> {
  const recordId = over.record_id ?? generateRecordId();
  const epoch = over.epoch ?? 0;
  const sealed = await sealMote(key, { groupId: over.group_id ?? GROUP, recordId, epoch }, payload);
  return { id: 1, record_id: recordId, group_id: GROUP, domain_id: 3, type_id: 0, source_id: 2, timestamp: 10, modified: 10, relationships: [], size: sealed.payload.length, comments: 0, files: [], editable: true, page_key: null, ...sealed, ...over };
}

describe("opening a page's records", () => {
  it("opens each card with its epoch's key; what does not open, or comes from beyond the verified epoch, has no payload", async () => {
    const keys = [await generateSymmetricKey(), await generateSymmetricKey()];
    const ring = await ringOf(keys);
    const fine = await viewOf(keys[1]!, { title: "Grüezi" }, { epoch: 1 });
    const old = await viewOf(keys[0]!, { title: "old" }, { id: 2 });
    const wrongKey = await viewOf(keys[0]!, { title: "x" }, { id: 3, epoch: 1 });
    const beyond = await viewOf(keys[1]!, { title: "x" }, { id: 4, epoch: 2 });
    const moved = { ...(await viewOf(keys[0]!, { title: "x" }, { id: 5 })), record_id: generateRecordId() };
    const otherGroup = await viewOf(keys[0]!, { title: "x" }, { id: 6, group_id: 8 });
    const sneaky = await viewOf(keys[0]!, { title: "evil\u202Etxt" }, { id: 7 });
    const opened = await openRecords(ring, [fine, old, wrongKey, beyond, moved, otherGroup, sneaky]);
    expect(opened.map((r) => r.payload?.title ?? null)).toEqual(["Grüezi", "old", null, null, null, null, null]);
    expect(opened[0]).toMatchObject({ id: 1, pageId: 3, authorId: 2, editable: true, epoch: 1 });
  });

  it("opens a payload once per cache", async () => {
    const keys = [await generateSymmetricKey()];
    let asked = 0;
    const ring: OpeningRing = { groupId: GROUP, epoch: 0, keyFor: async (epoch) => (asked++, keys[epoch]!) };
    const view = await viewOf(keys[0]!, { title: "once" });
    const cache = new Map();
    await openRecords(ring, [view], cache);
    await openRecords(ring, [view], cache);
    expect(asked).toBe(1);
  });

  it("opens comments; one sealed for another record shows no text", async () => {
    const key = await generateSymmetricKey();
    const ring = await ringOf([key]);
    const recordId = generateRecordId();
    const sealed = await sealComment(key, { groupId: GROUP, recordId, epoch: 0 }, { text: "Schön" });
    const view = { id: 1, record_id: recordId, mote_id: 4, source_id: 2, timestamp: 1, deletable: true, page_key: null, ...sealed };
    const opened = await openComments(ring, [view, { ...view, id: 2, record_id: generateRecordId() }]);
    expect(opened.map((c) => c.text)).toEqual(["Schön", null]);
  });
});
