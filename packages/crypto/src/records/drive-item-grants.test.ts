import { describe, expect, it } from "vitest";
import { generateSymmetricKey } from "../aead";
import { expectRefusal } from "../test-support";
import { type DriveItemPayload, openDriveItem, openDriveItemGrant, sealDriveItem, sealDriveItemForReaders } from "./drive-item";
import { GROUP_ID, groupSetting } from "./group-test-support";

const RID = "AAECAwQFBgcICQoLDA0ODw";
const place = { groupId: GROUP_ID, recordId: RID };
const folder: DriveItemPayload = { type: "folder", name: "Gehälter 2027 🔒", tags: ["hr"] };

describe("restricted drive items: the key granted to readers, none under the group key", () => {
  it("each reader opens it with their own grant; another member, the group key or the old dockey open nothing of it", async () => {
    const { log, keysOf, alice, bob, carol, identities } = await groupSetting();
    const verified = await log();
    const epochKey = await generateSymmetricKey();
    // Readable by the group first: Carol held its dockey then.
    const before = await sealDriveItem(epochKey, { ...place, epoch: 0 }, folder);
    expect(await openDriveItem(epochKey, before, { ...place, epoch: 0 }, "folder")).toEqual(folder);

    const restricted = await sealDriveItemForReaders(place, folder, verified, [identities.get(1)!, identities.get(2)!], alice);
    expect(restricted.grants.map((g) => g.userId)).toEqual([1, 2]);
    const grantOf = (uid: number) => restricted.grants.find((g) => g.userId === uid)!.grant;
    expect(await openDriveItemGrant(grantOf(2), restricted.payload, place, "folder", verified, bob, keysOf)).toEqual(folder);
    expect(await openDriveItemGrant(grantOf(1), restricted.payload, place, "folder", verified, alice, keysOf)).toEqual(folder);
    // Carol: another's grant is not hers; the old dockey opens the old key, not the new payload.
    await expectRefusal(openDriveItemGrant(grantOf(2), restricted.payload, place, "folder", verified, carol, keysOf), "bad_signature");
    await expectRefusal(openDriveItem(epochKey, { payload: restricted.payload, dockey: before.dockey }, { ...place, epoch: 0 }, "folder"), "decrypt_failed");
    // The grant is for this record and this kind only.
    await expectRefusal(openDriveItemGrant(grantOf(2), restricted.payload, { ...place, recordId: "DwAODQwLCgkIBwYFBAMCAQ" }, "folder", verified, bob, keysOf), "bad_signature");
    await expectRefusal(openDriveItemGrant(grantOf(2), restricted.payload, place, "drive", verified, bob, keysOf), "invalid_payload");
  });

  it("refuses a payload that is not a drive item's, and a granter who was never a member", async () => {
    const { log, mallory, alice, identities } = await groupSetting();
    const verified = await log();
    await expectRefusal(sealDriveItemForReaders(place, { type: "folder", name: "", tags: [] }, verified, [identities.get(1)!], alice), "invalid_input");
    await expectRefusal(sealDriveItemForReaders(place, folder, verified, [identities.get(1)!], mallory), "not_permitted");
  });
});
