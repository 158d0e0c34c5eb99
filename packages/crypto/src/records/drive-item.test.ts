import { describe, expect, it } from "vitest";
import { encrypt, generateSymmetricKey } from "../aead";
import { utf8Encode } from "../bytes";
import { serializeEnvelope } from "../envelope";
import { expectRefusal } from "../test-support";
import { type DriveItemPayload, openDriveItem, sealDriveItem } from "./drive-item";
import { generateRecordKey, recordPayloadAad, sealRecordPayload, wrapRecordKey } from "./record-key";

const RID = "AAECAwQFBgcICQoLDA0ODw";
const OTHER = "DwAODQwLCgkIBwYFBAMCAQ";
const place = { groupId: 7, recordId: RID, epoch: 2 };
const folder: DriveItemPayload = { type: "folder", name: "Verträge 2027 📁", tags: ["legal", "Q1"] };

describe("drive items", () => {
  it("round-trip with the epoch key; each seal a fresh key", async () => {
    const epochKey = await generateSymmetricKey();
    const sealed = await sealDriveItem(epochKey, place, folder);
    expect(sealed.epoch).toBe(2);
    expect(await openDriveItem(epochKey, sealed, place, "folder")).toEqual(folder);
    const again = await sealDriveItem(epochKey, place, folder);
    expect(again.dockey).not.toBe(sealed.dockey);
    expect(again.payload).not.toBe(sealed.payload);
  });

  it("a file carries its reference, checked on both sides", async () => {
    const epochKey = await generateSymmetricKey();
    const file = { id: 9, name: "Vertrag.pdf", type: "application/pdf", size: 1234, key: "A".repeat(43), header: '{"v":1}', thumb: false };
    const payload: DriveItemPayload = { type: "file", name: "Vertrag.pdf", tags: [], file };
    const sealed = await sealDriveItem(epochKey, place, payload);
    expect(await openDriveItem(epochKey, sealed, place, "file")).toEqual(payload);
    await expectRefusal(openDriveItem(epochKey, sealed, place, "folder"), "invalid_payload");
    await expectRefusal(sealDriveItem(epochKey, place, { ...payload, file: { ...file, key: "short" } }), "invalid_input");
  });

  it("do not open moved to another group, record or epoch, under another key, or as another kind", async () => {
    const epochKey = await generateSymmetricKey();
    const sealed = await sealDriveItem(epochKey, place, folder);
    await expectRefusal(openDriveItem(epochKey, sealed, { ...place, groupId: 8 }, "folder"), "decrypt_failed");
    await expectRefusal(openDriveItem(epochKey, sealed, { ...place, recordId: OTHER }, "folder"), "decrypt_failed");
    await expectRefusal(openDriveItem(epochKey, sealed, { ...place, epoch: 3 }, "folder"), "decrypt_failed");
    await expectRefusal(openDriveItem(await generateSymmetricKey(), sealed, place, "folder"), "decrypt_failed");
    // The server lists a folder as a drive: the payload says otherwise.
    await expectRefusal(openDriveItem(epochKey, sealed, place, "drive"), "invalid_payload");
    // Another item's payload with this item's key: its key does not open it.
    const other = await sealDriveItem(epochKey, place, { ...folder, name: "Other" });
    await expectRefusal(openDriveItem(epochKey, { payload: other.payload, dockey: sealed.dockey }, place, "folder"), "decrypt_failed");
  });

  it("seal only a drive item's payload, and open only one", async () => {
    const epochKey = await generateSymmetricKey();
    const bad = [
      { ...folder, name: "" },
      { ...folder, name: "x".repeat(256) },
      { ...folder, type: "file" },
      { ...folder, file: { id: 1 } },
      { ...folder, tags: [""] },
      { ...folder, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      { ...folder, extra: 1 },
    ];
    for (const payload of bad) await expectRefusal(sealDriveItem(epochKey, place, payload as DriveItemPayload), "invalid_input");
    // Sealed by a client that does not hold to the schema: refused on opening.
    const dek = await generateRecordKey();
    const dockey = await wrapRecordKey(epochKey, dek, place);
    for (const text of ["not json", JSON.stringify({ type: "folder", name: 5, tags: [] }), JSON.stringify({ type: "folder" })]) {
      const payload = await sealRecordPayload(dek, place, utf8Encode(text));
      await expectRefusal(openDriveItem(epochKey, { payload, dockey }, place, "folder"), "invalid_payload");
    }
    // A payload under the right key but another record's associated data does not open.
    const moved = serializeEnvelope(await encrypt(dek, utf8Encode(JSON.stringify(folder)), { aad: recordPayloadAad(7, OTHER) }));
    await expectRefusal(openDriveItem(epochKey, { payload: moved, dockey }, place, "folder"), "decrypt_failed");
  });
});
