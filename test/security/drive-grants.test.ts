import { db } from "@sealwork/core/db/service";
import {
  type SignedSealedKey,
  appendToLog,
  createLog,
  generateRecordId,
  generateSymmetricKey,
  isCryptoError,
  membershipContainer,
  openDriveItem,
  openDriveItemGrant,
  sealDriveItem,
  sealDriveItemForReaders,
  verifyLog,
} from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { getAs as get, groupTeam, postAs as post } from "../support/groups";
import { lookupOf, signer } from "../support/signed-conversations";
import { createSession } from "../support/users";

/**
 * A restricted drive item against a member outside its grant who holds everything a member holds
 * (the group key of the item's epoch, the item's dockey from before it was restricted) and, with
 * the server's help, every stored record of it (docs/protocol.md, "Restricted drive items"): read
 * here from the table itself, as a server that hands over its data would. Real crypto throughout.
 */
describe("a restricted drive item, read from the table by a member outside its grant", () => {
  it("opens for its readers only: no dockey under the group key, no grant for the outsider, the old key opens nothing new", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const cid = await createSession({ name: "Cid" });
    expect((await post(admin, `/api/groups/${group}/assignMember`, { member_uid: cid.id })).status).toBe(200);
    const [a, b, c] = await Promise.all([signer(ann), signer(ben), signer(cid)]);
    const keysOf = lookupOf([a, b, c]);
    // The group's log as its members' clients verify it (the server keeps it opaque).
    const container = membershipContainer("group", group);
    const entries = [await createLog(container, a.me, Date.now())];
    for (const p of [b, c]) entries.push(await appendToLog(await verifyLog(container, entries, keysOf), { action: "add", subject: { userId: p.key.userId, keyId: p.key.keyId }, at: Date.now() }, a.me));
    const log = await verifyLog(container, entries, keysOf);
    const epochKey = await generateSymmetricKey();

    const recordId = generateRecordId();
    const place = { groupId: group, recordId };
    const secret = `Gehälter ${recordId}`;
    const payload = { type: "folder" as const, name: secret, tags: ["hr-only"] };
    const drive = await post<{ item: { id: number } }>(ann, `/api/drive/${group}`, { record_id: generateRecordId(), kind: "drive", parent: 0, ...(await sealDriveItem(epochKey, { groupId: group, recordId: generateRecordId(), epoch: 0 }, { type: "drive", name: "Team", tags: [] })) });
    // Readable by the group first: Cid's client opened it then and may have kept its dockey.
    const open = await sealDriveItem(epochKey, { ...place, epoch: 0 }, payload);
    const folder = (await post<{ item: { id: number } }>(ann, `/api/drive/${group}`, { record_id: recordId, kind: "folder", parent: drive.body.item.id, ...open })).body.item;
    expect(await openDriveItem(epochKey, open, { ...place, epoch: 0 }, "folder")).toEqual(payload);

    // Ann restricts it to Ben: a new key, granted to Ann and Ben.
    const restricted = await sealDriveItemForReaders(place, payload, log, [a.key, b.key], a.me);
    const permitted = await post(ann, `/api/drive/items/${folder.id}/permit`, {
      read: [{ role: false, id: ben.id }],
      seal: { payload: restricted.payload, epoch: 0, grants: restricted.grants.map((g) => ({ user_id: g.userId, grant: g.grant })) },
    });
    expect(permitted.status).toBe(200);

    // What the server holds of it.
    const { data: stored } = await db().entities.driveitem.get({ groupId: group, id: folder.id }).go();
    const { data: grants } = await db().entities.drivegrant.scan.where((attr, op) => `${op.eq(attr.groupId, group)} AND ${op.eq(attr.itemId, folder.id)}`).go({ pages: "all" });
    expect(stored!.dockey).toBeUndefined();
    expect(grants.map((g) => g.userId).sort((x, y) => x - y)).toEqual([ann.id, ben.id].sort((x, y) => x - y));
    const everything = JSON.stringify([stored, grants]);
    for (const text of [secret, "hr-only", "Gehälter"]) expect(everything).not.toContain(text);

    // Cid, with the epoch key and the old dockey: nothing of the new payload.
    const refused = async (attempt: Promise<unknown>) => {
      const failure = await attempt.then(() => null, (error: unknown) => error);
      expect(failure !== null && isCryptoError(failure), String(failure)).toBe(true);
    };
    await refused(openDriveItem(epochKey, { payload: stored!.payload, dockey: open.dockey }, { ...place, epoch: 0 }, "folder"));
    await refused(openDriveItem(epochKey, { payload: stored!.payload, dockey: stored!.dockey ?? "" }, { ...place, epoch: 0 }, "folder"));
    // No grant is his; another's does not open for him.
    for (const g of grants) await refused(openDriveItemGrant(JSON.parse(g.grant) as SignedSealedKey, stored!.payload, place, "folder", log, c.me, keysOf));
    // Ben's does, for Ben.
    const bens = grants.find((g) => g.userId === ben.id)!;
    expect(await openDriveItemGrant(JSON.parse(bens.grant) as SignedSealedKey, stored!.payload, place, "folder", log, b.me, keysOf)).toEqual(payload);
    // And the server neither lists it to Cid nor serves him anyone's grant.
    const listed = await get<{ items: { id: number; grant: unknown }[] }>(cid, `/api/drive/${group}`);
    expect(listed.body.items.map((i) => i.id)).toEqual([drive.body.item.id]);
    const forBen = await get<{ items: { id: number; grant: unknown }[] }>(ben, `/api/drive/${group}`);
    expect(forBen.body.items.find((i) => i.id === folder.id)!.grant).toEqual(JSON.parse(bens.grant));
  });
});
