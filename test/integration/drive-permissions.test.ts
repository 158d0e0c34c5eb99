import { db } from "@sealwork/core/db/service";
import { DrivePermissions } from "@sealwork/core/drive/permissions";
import { generateRecordId } from "@sealwork/crypto";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { putBytes } from "../support/attachments";
import { burst, tally } from "../support/attack";
import { conversationKey, encrypted } from "../support/conversations";
import { getAs as get, groupTeam, postAs as post, revokeMember } from "../support/groups";
import { registerKey } from "../support/keys";
import { createSession } from "../support/users";

type Json = Record<string, unknown>;
type Who = Awaited<ReturnType<typeof groupTeam>>["ann"];
interface Grant {
  role: boolean;
  id: number;
}
interface Item {
  id: number;
  kind: string;
  parent: number;
  payload: string;
  dockey: string;
  epoch: number;
  editable: boolean;
  has_grants: boolean;
  restricted: boolean;
  grant: Json | null;
  regrant: { missing: number[]; former: number[] } | null;
  file_id: number | null;
}
interface Permissions {
  read: Grant[];
  write: Grant[];
  use: Grant[];
  _attrib: Record<string, string>;
  is_editable: boolean;
}

/**
 * An item's permissions over HTTP (docs/api.md, "Item permissions"). Sealed payloads and grants
 * are stand-ins here: the server checks their shape, who they are for and who sealed them, not
 * their cryptography (the security test and the browser test use the real one).
 */
async function driveOf(group: number) {
  const key = await conversationKey();
  const sealed = async (label: string) => ({ payload: await encrypted(key, label), dockey: await encrypted(key, `key of ${label}`), epoch: 0 });
  const create = async (who: Who, kind: "drive" | "folder" | "file", parent: number, over: Json = {}) =>
    (await post<{ item: Item } & Json>(who, `/api/drive/${group}`, { record_id: generateRecordId(), kind, parent, ...(await sealed(kind)), ...over })).body.item;
  const load = async (who: Who) => (await get<{ items: Item[] } & Json>(who, `/api/drive/${group}`)).body;
  const update = (who: Who, id: number, body: Json) => post<{ item: Item } & Json>(who, `/api/drive/${group}/update/${id}`, { _method: "PATCH", ...body });
  const destroy = (who: Who, id: number) => http<Json>("DELETE", `/api/drive/${group}/destroy/${id}`, { token: who.api_token });
  return { sealed, create, load, update, destroy, key };
}

const grantFor = (sealer: Who, userId: number) => ({ user_id: userId, grant: { sealed: `sealed-for-${userId}`, signature: "sig", sealer: sealer.id, sealerKeyId: "key-1" } });
const user = (who: Who): Grant => ({ role: false, id: who.id });
const permissions = (who: Who, id: number | string) => get<Permissions & Json>(who, `/api/drive/items/${id}/permissions`);
const permit = (who: Who, id: number | string, body: Json) => post<Permissions & Json>(who, `/api/drive/items/${id}/permit`, body);
const canI = (who: Who, id: number | string, permission: string) => get<{ grant: boolean } & Json>(who, `/api/drive/items/${id}/canI?permission=${permission}`);

describe("drive item permissions", () => {
  it("the author restricts a folder to a user: the others no longer list it, its contents or its file; the grants go to readers only", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const cid = await createSession({ name: "Cid" });
    await post(admin, `/api/groups/${group}/assignMember`, { member_uid: cid.id });
    const { create, load, sealed, update, destroy, key } = await driveOf(group);
    const drive = await create(ann, "drive", 0);
    const folder = await create(ann, "folder", drive.id);
    const inner = await create(ann, "folder", folder.id);
    const bytes = randomBytes(1000);
    const started = await post<{ id: number; parts: { url: string }[] }>(ann, `/api/drive/${group}/files`, { size: bytes.length });
    await putBytes(started.body.parts[0]!.url, bytes);
    await post(ann, `/api/drive/${group}/files/${started.body.id}/complete`, {});
    const file = await create(ann, "file", folder.id, { file: started.body.id });
    expect((await permissions(ann, file.id)).body).toMatchObject({ read: [], is_editable: true });

    expect((await permissions(ben, folder.id)).body).toMatchObject({ read: [], write: [], use: [], is_editable: false });
    expect((await permissions(ann, folder.id)).body).toMatchObject({ is_editable: true });
    expect((await canI(ben, folder.id, "read")).body).toEqual({ grant: true });
    expect((await canI(ben, folder.id, "write")).body).toEqual({ grant: false });
    expect((await canI(ben, folder.id, "use")).body).toEqual({ grant: true });

    // A read list without a new sealing, or with a dockey, or with grants for someone outside it: refused.
    expect((await permit(ann, folder.id, { read: [user(ben)] })).body).toMatchObject({ code: "drive_seal_invalid" });
    const reseal = { payload: (await sealed("secret")).payload, epoch: 0 };
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { ...reseal, dockey: (await sealed("x")).dockey } })).body).toMatchObject({ code: "drive_seal_invalid" });
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { ...reseal, grants: [grantFor(ann, ben.id), grantFor(ann, cid.id)] } })).body).toMatchObject({ code: "drive_seal_invalid" });
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { ...reseal, grants: [grantFor(ben, ben.id)] } })).body).toMatchObject({ code: "drive_seal_invalid" });
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { ...reseal, grants: [grantFor(ann, ben.id), grantFor(ann, ben.id)] } })).body).toMatchObject({ code: "drive_seal_invalid" });
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { ...reseal, payload: "plain name", grants: [grantFor(ann, ben.id)] } })).body).toMatchObject({ code: "mote_payload_invalid" });
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { ...reseal, epoch: 1, grants: [grantFor(ann, ben.id)] } })).body).toMatchObject({ code: "epoch_stale" });
    // Nothing of those was written.
    expect((await permissions(ann, folder.id)).body).toMatchObject({ read: [] });

    // Readers: Ben (named), Ann (author), Sue (administrator); not Cid.
    const done = await permit(ann, folder.id, { read: [user(ben), user(ben)], seal: { ...reseal, grants: [grantFor(ann, ben.id), grantFor(ann, ann.id), grantFor(ann, admin.id)] } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ read: [user(ben)], write: [], use: [], is_editable: true, _attrib: { [`u${ben.id}`]: "Ben" } });

    const forBen = (await load(ben)).items.find((i) => i.id === folder.id)!;
    expect(forBen).toMatchObject({ restricted: true, has_grants: true, dockey: "", payload: reseal.payload, editable: false });
    expect(forBen.grant).toMatchObject({ sealed: `sealed-for-${ben.id}` });
    expect((await load(ann)).items.find((i) => i.id === folder.id)!.grant).toMatchObject({ sealed: `sealed-for-${ann.id}` });
    // Cid lists neither the folder nor anything in it, and gets none of it by id.
    const cids = (await load(cid)).items.map((i) => i.id);
    expect(cids).toEqual([drive.id]);
    expect((await permissions(cid, folder.id)).body).toMatchObject({ code: "drive_item_not_found" });
    expect((await canI(cid, folder.id, "read")).body).toMatchObject({ code: "drive_item_not_found" });
    expect((await get(cid, `/api/drive/${group}/files/${started.body.id}`)).body).toMatchObject({ code: "attachment_not_found" });
    expect((await update(cid, folder.id, { parent: drive.id })).body).toMatchObject({ code: "drive_item_not_found" });
    expect((await update(cid, inner.id, { parent: drive.id })).body).toMatchObject({ code: "drive_item_not_found" });
    expect((await destroy(cid, folder.id)).body).toMatchObject({ code: "drive_item_not_found" });
    expect((await create(cid, "folder", inner.id)) ?? null).toBeNull();
    expect((await post(cid, `/api/drive/${group}`, { record_id: generateRecordId(), kind: "folder", parent: folder.id, ...(await sealed("in")) })).body).toMatchObject({ code: "drive_parent_invalid" });
    // Ben reads it and its file; may not change it, nor put anything into it.
    expect((await get(ben, `/api/drive/${group}/files/${started.body.id}`)).status).toBe(200);
    const bens = await create(ben, "folder", drive.id);
    expect((await update(ben, folder.id, { parent: bens.id })).body).toMatchObject({ code: "drive_move_forbidden" });
    expect((await update(ben, bens.id, { parent: folder.id })).body).toMatchObject({ code: "drive_move_forbidden" });
    expect((await post(ben, `/api/drive/${group}`, { record_id: generateRecordId(), kind: "folder", parent: folder.id, ...(await sealed("in")) })).body).toMatchObject({ code: "drive_use_forbidden" });
    expect((await permit(ben, folder.id, { read: [] })).body).toMatchObject({ code: "permit_forbidden" });
    // A rename of a restricted item grants its new key again; a dockey is refused.
    expect((await update(ann, folder.id, await sealed("renamed"))).body).toMatchObject({ code: "drive_seal_invalid" });
    const renamed = await update(ann, folder.id, { payload: (await sealed("renamed")).payload, epoch: 0, grants: [grantFor(ann, ann.id), grantFor(ann, ben.id)] });
    expect(renamed.body.item).toMatchObject({ restricted: true, dockey: "" });
    expect(await grantees(group, folder.id)).toEqual([ann.id, ben.id].sort((a, b) => a - b));

    // Readable by the group again: a dockey under the current epoch, the grants gone.
    expect((await permit(ann, folder.id, { read: [] })).body).toMatchObject({ code: "drive_seal_invalid" });
    const open = await sealed("open again");
    expect((await permit(ann, folder.id, { read: [], write: [user(ben)], seal: open })).status).toBe(200);
    expect((await load(cid)).items.find((i) => i.id === folder.id)).toMatchObject({ restricted: false, has_grants: true, dockey: open.dockey, grant: null });
    expect(await grantees(group, folder.id)).toEqual([]);
    // A write list: Ben renames, moves and deletes it now; Cid reads it.
    expect((await canI(ben, folder.id, "write")).body).toEqual({ grant: true });
    expect((await update(ben, folder.id, await sealed("Ben's name"))).status).toBe(200);
    expect((await get(cid, `/api/drive/${group}/files/${started.body.id}`)).status).toBe(200);
    void key;
  });

  it("refuses the wrong people and wrong input with stable codes", async () => {
    const { admin, ann, ben, outsider, group } = await groupTeam();
    const { create, sealed } = await driveOf(group);
    const drive = await create(ann, "drive", 0);
    const folder = await create(ann, "folder", drive.id);
    const bytes = randomBytes(100);
    const started = await post<{ id: number; parts: { url: string }[] }>(ann, `/api/drive/${group}/files`, { size: bytes.length });
    await putBytes(started.body.parts[0]!.url, bytes);
    await post(ann, `/api/drive/${group}/files/${started.body.id}/complete`, {});
    const file = await create(ann, "file", drive.id, { file: started.body.id });

    // A member who is not its author: 403 with the spec's text.
    const refused = await permit(ben, folder.id, { write: [user(ben)] });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "permit_forbidden", message: "You do not have access to edit this object." });
    // Administrators may (group and instance); lists without a read list need no sealing.
    expect((await permit(admin, folder.id, { write: [user(ben)] })).status).toBe(200);
    expect((await permit(ann, drive.id, { use: [user(ben)] })).status).toBe(200);
    // Use on a file: refused.
    expect((await permit(ann, file.id, { use: [user(ben)] })).body).toMatchObject({ code: "drive_use_on_file" });
    expect((await canI(ann, file.id, "use")).body).toEqual({ grant: false });
    expect((await permit(ann, file.id, { write: [user(ben)] })).status).toBe(200);
    // Users outside the group, roles of another group, odd shapes.
    expect((await permit(ann, folder.id, { write: [user(outsider)] })).body).toMatchObject({ code: "permit_invalid" });
    const other = await groupTeam("Other");
    const role = await post<{ id: number }>(other.admin, "/api/roles", { name: "Theirs", group_id: other.group });
    expect((await permit(ann, folder.id, { write: [{ role: true, id: role.body.id }] })).body).toMatchObject({ code: "permit_invalid" });
    for (const bad of [{ read: "all" }, { write: [{ role: "yes", id: 1 }] }, { write: [{ role: false, id: 0 }] }, { write: [{ role: false, id: -1 }] }, { read: [{ role: false }] }]) {
      const hit = await permit(ann, folder.id, bad);
      expect(hit.status, JSON.stringify(bad)).toBe(422);
      expect(hit.body.code).toBe("permit_invalid");
    }
    expect((await canI(ann, folder.id, "delete")).status).toBe(422);
    expect((await canI(ann, folder.id, "read%00")).status).toBe(422);
    // Control characters in a grant's place, in ids.
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { payload: "\u0000\u202e", epoch: 0, grants: [grantFor(ann, ben.id)] } })).body).toMatchObject({ code: "mote_payload_invalid" });
    for (const id of ["01", "1e3", "0x10", "-1", "1.0", "+1", "1%20", "%00", `${folder.id}%0A`]) {
      expect((await permissions(ann, id)).status, id).toBe(422);
      expect((await permit(ann, id, {})).status, id).toBe(422);
      expect((await canI(ann, id, "read")).status, id).toBe(422);
    }
    expect((await permissions(ann, 999_999_999)).body).toMatchObject({ code: "drive_item_not_found" });
    // Outside the group, another group's member, a removed member.
    expect((await permissions(outsider, folder.id)).body).toMatchObject({ code: "group_forbidden" });
    expect((await permit(other.ann, folder.id, {})).body).toMatchObject({ code: "group_forbidden" });
    await revokeMember(admin, group, { member_uid: ben.id });
    expect((await permissions(ben, folder.id)).body).toMatchObject({ code: "group_forbidden" });
    expect((await canI(ben, folder.id, "read")).body).toMatchObject({ code: "group_forbidden" });
    // Nothing of this reached the lists.
    expect((await permissions(ann, folder.id)).body).toMatchObject({ read: [], use: [], write: [user(ben)] });
    void sealed;
  });

  it("a grantee whose account key moved is missing a grant again (the upkeep grants it for the new key); others keep theirs", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const first = await registerKey(ben);
    const { create, load, sealed } = await driveOf(group);
    const drive = await create(ann, "drive", 0);
    const folder = await create(ann, "folder", drive.id);
    const reseal = { payload: (await sealed("for Ben")).payload, epoch: 0 };
    const grants = [grantFor(ann, ann.id), grantFor(ann, ben.id), grantFor(ann, admin.id)];
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { ...reseal, grants } })).status).toBe(200);
    expect((await load(ann)).items.find((i) => i.id === folder.id)?.regrant).toEqual({ missing: [], former: [] });
    // Ben's new key in place of his first (the key-moved job): his grant is for the old key.
    await registerKey(ben, first);
    await expect.poll(async () => (await load(ann)).items.find((i) => i.id === folder.id)?.regrant, { timeout: 20_000 }).toEqual({ missing: [ben.id], former: [] });
    expect(await grantees(group, folder.id)).toEqual([ann.id, admin.id].sort((a, b) => a - b));
    // Granted again (as the upkeep does, for the key he holds now): nothing missing.
    const again = { payload: (await sealed("for Ben again")).payload, epoch: 0 };
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { ...again, grants } })).status).toBe(200);
    expect((await load(ann)).items.find((i) => i.id === folder.id)?.regrant).toEqual({ missing: [], former: [] });
  });

  it("the key-moved job leaves a grant sealed since the key moved (the renewing member's own browser granted it again) and takes one sealed before", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const first = await registerKey(ann);
    const { create, sealed } = await driveOf(group);
    const drive = await create(ann, "drive", 0);
    const folder = await create(ann, "folder", drive.id);
    const grants = [grantFor(ann, ann.id), grantFor(ann, ben.id), grantFor(ann, admin.id)];
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { payload: (await sealed("before")).payload, epoch: 0, grants } })).status).toBe(200);
    const movedAt = Date.now();
    await registerKey(ann, first);
    // Her browser grants the item's key again (for her new key) right after the move.
    expect((await permit(ann, folder.id, { read: [user(ben)], seal: { payload: (await sealed("after")).payload, epoch: 0, grants } })).status).toBe(200);
    await DrivePermissions.granteeKeyMoved(group, ann.id, movedAt);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await grantees(group, folder.id)).toEqual([admin.id, ann.id, ben.id].sort((a, b) => a - b));
    // A grant from before the move goes.
    await db().entities.drivegrant.patch({ groupId: group, userId: ann.id, itemId: folder.id }).set({ at: movedAt - 1 }).go();
    await DrivePermissions.granteeKeyMoved(group, ann.id, movedAt);
    expect(await grantees(group, folder.id)).toEqual([admin.id, ben.id].sort((a, b) => a - b));
  });

  it("a removed member's grant is not served, and a role names its holders", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const { create, load, sealed } = await driveOf(group);
    const drive = await create(ann, "drive", 0);
    const folder = await create(ann, "folder", drive.id);
    const role = (await post<{ id: number }>(admin, "/api/roles", { name: "Editors", group_id: group })).body.id;
    expect((await post(admin, `/api/roles/${role}/assign`, { user_id: ben.id })).status).toBe(200);
    const reseal = { payload: (await sealed("for editors")).payload, epoch: 0 };
    const done = await permit(ann, folder.id, { read: [{ role: true, id: role }], seal: { ...reseal, grants: [grantFor(ann, ann.id), grantFor(ann, ben.id)] } });
    expect(done.body).toMatchObject({ read: [{ role: true, id: role }], _attrib: { [`r${role}`]: "Editors" } });
    expect((await load(ben)).items.find((i) => i.id === folder.id)?.grant).toMatchObject({ sealed: `sealed-for-${ben.id}` });
    // Its author is told who reads it without a grant (the administrator) and, once Ben loses the role, who holds one but reads it no more.
    expect((await load(ann)).items.find((i) => i.id === folder.id)?.regrant).toEqual({ missing: [admin.id], former: [] });
    expect((await load(ben)).items.find((i) => i.id === folder.id)?.regrant).toBeNull();
    await post(admin, `/api/roles/${role}/unassign`, { user_id: ben.id });
    expect((await load(ben)).items.map((i) => i.id)).toEqual([drive.id]);
    expect((await load(ann)).items.find((i) => i.id === folder.id)?.regrant).toEqual({ missing: [admin.id], former: [ben.id] });
    // A restricted item deleted: its grants go with it.
    expect((await http("DELETE", `/api/drive/${group}/destroy/${folder.id}`, { token: ann.api_token })).status).toBe(200);
    expect(await grantees(group, folder.id)).toEqual([]);
    await revokeMember(admin, group, { member_uid: ben.id });
    expect((await load(ben))).toMatchObject({ code: "group_forbidden" });
  });

  it("parallel permits on fresh connections leave one consistent state", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const { create, sealed } = await driveOf(group);
    const drive = await create(ann, "drive", 0);
    const folder = await create(ann, "folder", drive.id);
    const bodies = await Promise.all(
      Array.from({ length: 8 }, async (_, i) =>
        i % 2
          ? { read: [user(ben)], seal: { payload: (await sealed(`r${i}`)).payload, epoch: 0, grants: [grantFor(ann, ann.id), grantFor(ann, ben.id), grantFor(ann, admin.id)] } }
          : { read: [], seal: await sealed(`o${i}`) },
      ),
    );
    const hits = await burst(bodies.length, (i) => ({ method: "POST", path: `/api/drive/items/${folder.id}/permit`, token: ann.api_token, body: bodies[i] }));
    const counts = tally(hits);
    expect(Object.keys(counts).every((k) => k === "200" || k === "409 drive_item_changed"), JSON.stringify(counts)).toBe(true);
    expect(counts["200"]).toBeGreaterThanOrEqual(1);
    const { data: it } = await db().entities.driveitem.get({ groupId: group, id: folder.id }).go();
    const winner = bodies.find((b) => b.seal.payload === it!.payload)!;
    expect(winner).toBeDefined();
    const stored = await grantees(group, folder.id);
    if (winner.read.length) {
      expect(it!.dockey).toBeUndefined();
      expect(stored).toEqual([admin.id, ann.id, ben.id].sort((a, b) => a - b));
      expect([...it!.grantees].sort((a, b) => a - b)).toEqual(stored);
    } else {
      expect(it!.dockey).toBe((winner.seal as { dockey: string }).dockey);
      expect(stored).toEqual([]);
    }
    // Deleted, the item takes its grants and its id's record with it.
    expect((await http("DELETE", `/api/drive/${group}/destroy/${folder.id}`, { token: ann.api_token })).status).toBe(200);
    expect(await grantees(group, folder.id)).toEqual([]);
    expect((await db().entities.drivemote.get({ id: folder.id }).go()).data).toBeNull();
    expect((await permissions(ann, folder.id)).body).toMatchObject({ code: "drive_item_not_found" });
  });
});

/** The users holding a stored grant of the item's key, read from the table. */
async function grantees(groupId: number, itemId: number): Promise<number[]> {
  const { data } = await db().entities.drivegrant.scan.where((attr, op) => `${op.eq(attr.groupId, groupId)} AND ${op.eq(attr.itemId, itemId)}`).go({ pages: "all" });
  return data.map((g) => g.userId).sort((a, b) => a - b);
}
