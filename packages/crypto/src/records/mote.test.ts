import { describe, expect, it } from "vitest";
import { generateSymmetricKey } from "../aead";
import { utf8Encode } from "../bytes";
import { expectRefusal } from "../test-support";
import { type MotePayload, openComment, openMote, sealComment, sealMote } from "./mote";
import { generateRecordKey, sealRecordPayload, wrapRecordKey } from "./record-key";

const RID = "AAECAwQFBgcICQoLDA0ODw";
const OTHER = "DwAODQwLCgkIBwYFBAMCAQ";
const place = { groupId: 7, recordId: RID, epoch: 2 };
const file = { id: 9, name: "Plan.pdf", type: "application/pdf", size: 1234, key: "A".repeat(43), header: '{"v":1}', thumb: false };
const card: MotePayload = {
  title: "Grüezi 🃏",
  content: "Zeile 1\nZeile 2",
  _html: "<p>Grüezi</p>",
  media: { ...file, name: "cover.png", type: "image/png", thumb: true },
  attached: [file],
  tags: ["Legal", "q1"],
  event_start: "2027-03-01T09:00",
  event_end: "2027-03-01T10:30",
  cf_amount: { amount: 217.5, currency: "HKD" },
  cf_refs: [1, 2, 3],
  cf_note: null,
};

describe("motes", () => {
  it("round-trip with the epoch key, custom fields and Unicode kept; each seal a fresh key", async () => {
    const epochKey = await generateSymmetricKey();
    const sealed = await sealMote(epochKey, place, card);
    expect(sealed.epoch).toBe(2);
    expect(await openMote(epochKey, sealed, place)).toEqual(card);
    const again = await sealMote(epochKey, place, card);
    expect(again.dockey).not.toBe(sealed.dockey);
    expect(again.payload).not.toBe(sealed.payload);
    expect(await openMote(epochKey, await sealMote(epochKey, place, {}), place)).toEqual({});
  });

  it("do not open moved to another group, record or epoch, or under another key", async () => {
    const epochKey = await generateSymmetricKey();
    const sealed = await sealMote(epochKey, place, card);
    await expectRefusal(openMote(epochKey, sealed, { ...place, groupId: 8 }), "decrypt_failed");
    await expectRefusal(openMote(epochKey, sealed, { ...place, recordId: OTHER }), "decrypt_failed");
    await expectRefusal(openMote(epochKey, sealed, { ...place, epoch: 3 }), "decrypt_failed");
    await expectRefusal(openMote(await generateSymmetricKey(), sealed, place), "decrypt_failed");
    const other = await sealMote(epochKey, place, { title: "other" });
    await expectRefusal(openMote(epochKey, { payload: other.payload, dockey: sealed.dockey }, place), "decrypt_failed");
  });

  it("seal only a mote's payload, and open only one", async () => {
    const epochKey = await generateSymmetricKey();
    const bad = [
      { text: "a comment" },
      { title: 5 },
      { extra: 1 },
      { cf_: 1 },
      { "cf_a b": 1 },
      { tags: [""] },
      { tags: ["a", "A"] },
      { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      { attached: [{ id: 1 }] },
      { media: { ...file, key: "short" } },
      { event_start: "2027-13-01T09:00" },
      { event_start: "2027-03-01T10:00", event_end: "2027-03-01T09:59" },
      { title: "x".repeat(1025) },
      { cf_bad: () => 1 },
    ];
    for (const payload of bad) await expectRefusal(sealMote(epochKey, place, payload as never), "invalid_input");
    const dek = await generateRecordKey();
    const dockey = await wrapRecordKey(epochKey, dek, place);
    for (const text of ["not json", JSON.stringify({ text: "hi" }), JSON.stringify({ title: 1 }), "[]", "null"]) {
      const payload = await sealRecordPayload(dek, place, utf8Encode(text));
      await expectRefusal(openMote(epochKey, { payload, dockey }, place), "invalid_payload");
    }
  });

  it("comments are records of their own: { text }, never empty, never taken for a card", async () => {
    const epochKey = await generateSymmetricKey();
    const comment = await sealComment(epochKey, { ...place, recordId: OTHER }, { text: "Schön 👍" });
    expect(await openComment(epochKey, comment, { ...place, recordId: OTHER })).toEqual({ text: "Schön 👍" });
    await expectRefusal(openComment(epochKey, comment, place), "decrypt_failed");
    await expectRefusal(openMote(epochKey, comment, { ...place, recordId: OTHER }), "invalid_payload");
    const cardSealed = await sealMote(epochKey, place, card);
    await expectRefusal(openComment(epochKey, cardSealed, place), "invalid_payload");
    for (const payload of [{ text: "" }, { text: "  \n" }, { text: "x".repeat(10_001) }, { text: "a", title: "b" }, {}]) {
      await expectRefusal(sealComment(epochKey, place, payload as never), "invalid_input");
    }
  });
});
