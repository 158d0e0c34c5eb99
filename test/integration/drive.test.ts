import { DRIVE_ITEMS_MAX } from "@sealwork/contracts";
import { db } from "@sealwork/core/db/service";
import { generateRecordId } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { randomBytes } from "node:crypto";
import { downloadFile as downloadAttachment, putBytes } from "../support/attachments";
import { burst, fire, tally } from "../support/attack";
import { conversationKey, encrypted, startConversation } from "../support/conversations";
import { getAs as get, groupTeam, postAs as post, revokeMember } from "../support/groups";

type Json = Record<string, unknown>;
type Who = Awaited<ReturnType<typeof groupTeam>>["ann"];
interface Item {
  id: number;
  record_id: string;
  kind: "drive" | "folder" | "file";
  file_id: number | null;
  size: number;
  parent: number;
  source_id: number;
  modified: number;
  payload: string;
  dockey: string;
  epoch: number;
  editable: boolean;
}
interface DriveAnswer {
  items: Item[];
  attrib: Record<string, { uid: number; name: string }>;
  epoch: number;
  needs_rekey: boolean;
  can_create: boolean;
  am_group_admin: boolean;
}

/**
 * The drive's routes over HTTP (docs/api.md, Drive). The server checks shapes, the tree and who
 * may do what; the sealed names are stand-ins here (the browser test and the canary scan use the
 * browser's own sealing).
 */
async function driveOf(group: number) {
  const key = await conversationKey();
  const sealed = async (label: string) => ({ payload: await encrypted(key, label), dockey: await encrypted(key, `key of ${label}`), epoch: 0 });
  const create = async (who: Who, kind: "drive" | "folder" | "file", parent: number, over: Json = {}) =>
    post<{ item: Item } & Json>(who, `/api/drive/${group}`, { record_id: generateRecordId(), kind, parent, ...(await sealed(kind)), ...over });
  const update = (who: Who, id: number, body: Json) => post<{ item: Item } & Json>(who, `/api/drive/${group}/update/${id}`, { _method: "PATCH", ...body });
  const destroy = (who: Who, id: number) => http<{ deleted: number[] } & Json>("DELETE", `/api/drive/${group}/destroy/${id}`, { token: who.api_token });
  const load = (who: Who) => get<DriveAnswer & Json>(who, `/api/drive/${group}`);
  return { sealed, create, update, destroy, load };
}

describe("drive", () => {
  it("members add drives and folders and list them; a retry stores one item; outsiders and wrong trees are refused", async () => {
    const { admin, ann, ben, outsider, group } = await groupTeam();
    const { create, load, sealed } = await driveOf(group);

    const drive = await create(ann, "drive", 0);
    expect(drive.status).toBe(200);
    expect(drive.body.item).toMatchObject({ kind: "drive", parent: 0, source_id: ann.id, epoch: 0, editable: true });
    const folder = await create(ben, "folder", drive.body.item.id);
    expect(folder.body.item).toMatchObject({ kind: "folder", parent: drive.body.item.id, source_id: ben.id });

    // The same record id, twice at once and again later: one item.
    const body = { record_id: generateRecordId(), kind: "folder", parent: folder.body.item.id, ...(await sealed("retried")) };
    const tries = await Promise.all([0, 1, 2].map(() => fire({ method: "POST", path: `/api/drive/${group}`, token: ann.api_token, body })));
    expect(tries.map((t) => t.status)).toEqual([200, 200, 200]);
    expect(new Set(tries.map((t) => (t.body.item as Item).id)).size).toBe(1);
    // Someone else's record id is theirs.
    expect((await post(ben, `/api/drive/${group}`, body)).body).toMatchObject({ code: "record_id_taken" });

    const listed = await load(ben);
    expect(listed.body.items.map((i) => i.kind)).toEqual(["drive", "folder", "folder"]);
    expect(listed.body).toMatchObject({ epoch: 0, needs_rekey: false, can_create: true, am_group_admin: false });
    expect(Object.values(listed.body.attrib).map((a) => a.uid).sort()).toEqual([ann.id, ben.id].sort());
    // Ben may change his own folder only; the group's administrator may change all.
    expect(listed.body.items.map((i) => i.editable)).toEqual([false, true, false]);
    expect((await load(admin)).body.items.map((i) => i.editable)).toEqual([true, true, true]);

    expect((await load(outsider)).body).toMatchObject({ code: "group_forbidden" });
    expect((await create(outsider, "drive", 0)).body).toMatchObject({ code: "group_forbidden" });
    // A drive goes at the top, a folder into a drive or folder of this group.
    expect((await create(ann, "folder", 0)).body).toMatchObject({ code: "drive_parent_invalid" });
    expect((await create(ann, "drive", drive.body.item.id)).body).toMatchObject({ code: "drive_parent_invalid" });
    expect((await create(ann, "folder", 999_999_999)).body).toMatchObject({ code: "drive_parent_invalid" });
    const other = await groupTeam("Other");
    const elsewhere = await (await driveOf(other.group)).create(other.ann, "drive", 0);
    expect((await create(ann, "folder", elsewhere.body.item.id)).body).toMatchObject({ code: "drive_parent_invalid" });
    // What is not sealed, or sealed for another epoch, is not taken.
    expect((await create(ann, "drive", 0, { payload: "Quarterly plans" })).body).toMatchObject({ code: "mote_payload_invalid" });
    expect((await create(ann, "drive", 0, { dockey: "raw key" })).body).toMatchObject({ code: "mote_payload_invalid" });
    expect((await create(ann, "drive", 0, { epoch: 1 })).body).toMatchObject({ code: "epoch_stale" });
    expect((await create(ann, "drive", 0, { record_id: "not-a-record-id" })).status).toBe(422);
    expect((await create(ann, "drive", 0, { record_id: `${generateRecordId().slice(0, 21)}B` })).status).toBe(422);
    expect((await create(ann, "drive", 0, { kind: "file" })).status).toBe(422);
    // Ids in odd spellings are not ids.
    for (const id of ["01", "1e3", "0x10", "-1", "1.0", "+1", "1%20"]) {
      expect((await get(ann, `/api/drive/${id}`)).status, id).toBe(422);
      expect((await post(ann, `/api/drive/${group}/update/${id}`, { _method: "PATCH", parent: 1 })).status, id).toBe(422);
    }
    expect((await load(ann)).body.items).toHaveLength(3);
  });

  it("holds to the drive page's permissions: read to list, use to add and change", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const { create, load, update, destroy, sealed } = await driveOf(group);
    const drive = (await create(ann, "drive", 0)).body.item;
    const mine = (await create(ann, "folder", drive.id)).body.item;
    const menu = await get<{ menu: { id: number; reserved: string | null }[] }>(admin, `/api/groups/${group}`);
    const page = menu.body.menu.find((p) => p.reserved === "drive")!;
    expect((await post(admin, `/api/pages/${page.id}/permit`, { read: [{ role: false, id: ann.id }], use: [] })).status).toBe(200);

    const readOnly = await load(ann);
    expect(readOnly.status).toBe(200);
    expect(readOnly.body.can_create).toBe(false);
    expect((await create(ann, "folder", drive.id)).body).toMatchObject({ code: "page_forbidden" });
    expect((await update(ann, mine.id, await sealed("renamed"))).body).toMatchObject({ code: "page_forbidden" });
    expect((await destroy(ann, mine.id)).body).toMatchObject({ code: "page_forbidden" });
    expect((await load(ben)).body).toMatchObject({ code: "page_forbidden" });
    expect((await create(admin, "folder", drive.id)).status).toBe(200);
  });

  it("renames and moves by the item's rules; a drive is never moved or deleted; nothing goes below itself", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const { create, load, update, destroy, sealed } = await driveOf(group);
    const one = (await create(ann, "drive", 0)).body.item;
    const two = (await create(ben, "drive", 0)).body.item;
    const a = (await create(ann, "folder", one.id)).body.item;
    const b = (await create(ann, "folder", a.id)).body.item;
    const c = (await create(ben, "folder", two.id)).body.item;

    const renamed = await update(ann, a.id, await sealed("renamed"));
    expect(renamed.status).toBe(200);
    expect(renamed.body.item.payload).not.toBe(a.payload);
    expect((await update(ben, a.id, await sealed("Ben's name"))).body).toMatchObject({ code: "drive_edit_forbidden" });
    expect((await update(ben, a.id, { parent: two.id })).body).toMatchObject({ code: "drive_move_forbidden" });
    expect((await destroy(ben, a.id)).body).toMatchObject({ code: "drive_delete_forbidden" });
    expect((await update(ann, a.id, { ...(await sealed("half")), dockey: undefined })).status).toBe(422);
    expect((await update(ann, a.id, {})).status).toBe(422);
    expect((await update(ann, 999_999_999, { parent: one.id })).body).toMatchObject({ code: "drive_item_not_found" });

    // Drives: renamed by their author, never moved or deleted, not even by an administrator.
    expect((await update(ann, one.id, await sealed("Drive one"))).status).toBe(200);
    expect((await update(admin, one.id, { parent: two.id })).body).toMatchObject({ code: "drive_move_forbidden" });
    expect((await destroy(admin, one.id)).body).toMatchObject({ code: "drive_delete_forbidden" });

    // Into itself or below itself: refused; into its own parent: nothing changes.
    expect((await update(ann, a.id, { parent: a.id })).body).toMatchObject({ code: "drive_move_forbidden" });
    expect((await update(ann, a.id, { parent: b.id })).body).toMatchObject({ code: "drive_move_forbidden" });
    const same = await update(ann, b.id, { parent: a.id });
    expect(same.body.item).toMatchObject({ parent: a.id, modified: b.modified });
    // Into another drive, with what is in it (the moved folder only is written).
    expect((await update(ann, a.id, { parent: c.id })).body.item).toMatchObject({ parent: c.id });
    const after = (await load(ann)).body.items;
    expect(after.find((i) => i.id === b.id)).toMatchObject({ parent: a.id });
    // The group's administrator moves anyone's folder.
    expect((await update(admin, c.id, { parent: one.id })).body.item).toMatchObject({ parent: one.id });
  });

  it("two crossing moves at once never make a loop", async () => {
    const { ann, group } = await groupTeam();
    const { create, load } = await driveOf(group);
    const drive = (await create(ann, "drive", 0)).body.item;
    for (let round = 0; round < 3; round++) {
      const x = (await create(ann, "folder", drive.id)).body.item;
      const y = (await create(ann, "folder", drive.id)).body.item;
      const hits = await Promise.all([
        fire({ method: "PATCH", path: `/api/drive/${group}/update/${x.id}`, token: ann.api_token, body: { parent: y.id } }),
        fire({ method: "PATCH", path: `/api/drive/${group}/update/${y.id}`, token: ann.api_token, body: { parent: x.id } }),
      ]);
      expect(hits.filter((h) => h.status === 200).length, JSON.stringify(hits)).toBeLessThanOrEqual(1);
      const items = (await load(ann)).body.items;
      const parent = (id: number) => items.find((i) => i.id === id)?.parent;
      expect(parent(x.id) === y.id && parent(y.id) === x.id).toBe(false);
      expect(items.map((i) => i.id)).toEqual(expect.arrayContaining([x.id, y.id]));
    }
  });

  it("deletes a folder with everything in it and gives the room back; an item's author alone (or an administrator)", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const { create, load, destroy } = await driveOf(group);
    const drive = (await create(ann, "drive", 0)).body.item;
    const top = (await create(ann, "folder", drive.id)).body.item;
    const inner = (await create(ann, "folder", top.id)).body.item;
    const bens = (await create(ben, "folder", inner.id)).body.item;
    const keep = (await create(ann, "folder", drive.id)).body.item;

    // Ben's folder is inside: Ann may not delete what holds it; the administrator may.
    expect((await destroy(ann, top.id)).body).toMatchObject({ code: "drive_delete_forbidden" });
    expect((await destroy(ben, bens.id)).body).toMatchObject({ deleted: [bens.id] });
    const gone = await destroy(ann, top.id);
    expect(gone.body.deleted.sort()).toEqual([top.id, inner.id].sort());
    expect((await destroy(ann, top.id)).body).toMatchObject({ code: "drive_item_not_found" });
    expect((await load(ann)).body.items.map((i) => i.id)).toEqual([drive.id, keep.id]);
    const { data } = await db().entities.drivestate.get({ groupId: group }).go();
    expect(data?.items).toBe(2);
    expect((await destroy(admin, keep.id)).status).toBe(200);
  });

  it("a folder deleted while items are being put into it leaves nothing behind", async () => {
    const { ann, group } = await groupTeam();
    const { create, load, sealed } = await driveOf(group);
    const drive = (await create(ann, "drive", 0)).body.item;
    const doomed = (await create(ann, "folder", drive.id)).body.item;
    const inner = (await create(ann, "folder", doomed.id)).body.item;
    const bodies = await Promise.all(Array.from({ length: 8 }, async (_, i) => ({ record_id: generateRecordId(), kind: "folder", parent: i % 2 ? doomed.id : inner.id, ...(await sealed(`f${i}`)) })));
    await Promise.all([
      fire({ method: "DELETE", path: `/api/drive/${group}/destroy/${doomed.id}`, token: ann.api_token }),
      ...bodies.map((body) => fire({ method: "POST", path: `/api/drive/${group}`, token: ann.api_token, body })),
    ]);
    // Whatever got in before the deletion went with it; anything that got in after has no way up and goes with the next.
    expect((await load(ann)).body.items.map((i) => i.id)).toEqual([drive.id]);
    const spare = (await create(ann, "folder", drive.id)).body.item;
    await http("DELETE", `/api/drive/${group}/destroy/${spare.id}`, { token: ann.api_token });
    const { data } = await db().entities.driveitem.query.byGroup({ groupId: group }).go({ pages: "all" });
    expect(data.map((i) => i.id)).toEqual([drive.id]);
    expect((await db().entities.drivestate.get({ groupId: group }).go()).data?.items).toBe(1);
  });

  it("holds the item limit under parallel creations on fresh connections", async () => {
    const { ann, group } = await groupTeam();
    const { create, sealed } = await driveOf(group);
    const drive = (await create(ann, "drive", 0)).body.item;
    // As if the drive held all but three of its items.
    await db().entities.drivestate.update({ groupId: group }).set({ items: DRIVE_ITEMS_MAX - 3 }).go();
    const bodies = await Promise.all(Array.from({ length: 12 }, async (_, i) => ({ record_id: generateRecordId(), kind: "folder", parent: drive.id, ...(await sealed(`n${i}`)) })));
    const hits = await burst(bodies.length, (i) => ({ method: "POST", path: `/api/drive/${group}`, token: ann.api_token, body: bodies[i] }));
    expect(tally(hits)).toEqual({ "200": 3, "422 drive_full": 9 });
  });

  it("takes nothing sealed for an old epoch, and nothing new while a removal waits for the next", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const { create, update, load, sealed } = await driveOf(group);
    const drive = (await create(ann, "drive", 0)).body.item;
    await revokeMember(admin, group, { member_uid: ben.id });
    expect((await create(ann, "folder", drive.id)).body).toMatchObject({ code: "rekey_pending" });
    expect((await update(ann, drive.id, await sealed("renamed"))).body).toMatchObject({ code: "rekey_pending" });
    expect((await load(ben)).body).toMatchObject({ code: "group_forbidden" });
    await http("POST", `/api/groups/${group}/log`, { token: admin.api_token, body: { head: -1, rekey: { epoch: 1, link: "link" } } });
    expect((await create(ann, "folder", drive.id)).body).toMatchObject({ code: "epoch_stale" });
    expect((await create(ann, "folder", drive.id, { epoch: 1 })).body.item).toMatchObject({ epoch: 1 });
    expect((await load(ann)).body).toMatchObject({ epoch: 1, needs_rekey: false });
  });

  it("stores a file's encrypted bytes in the drive's space: uploaded by a member, read by members, gone with its item", async () => {
    const { ann, ben, outsider, group } = await groupTeam();
    const { create, load, destroy } = await driveOf(group);
    const drive = (await create(ann, "drive", 0)).body.item;
    const bytes = randomBytes(3000);
    const upload = async (who: Who, size = bytes.length) => post<{ id: number; parts: { url: string }[]; multipart: boolean } & Json>(who, `/api/drive/${group}/files`, { size });
    const complete = (who: Who, id: number) => post<Json>(who, `/api/drive/${group}/files/${id}/complete`, {});
    const download = (who: Who, id: number) => get<{ url: string; size: number } & Json>(who, `/api/drive/${group}/files/${id}`);

    const started = await upload(ann);
    expect(started.body).toMatchObject({ multipart: false });
    expect((await complete(ann, started.body.id)).body).toMatchObject({ code: "attachment_incomplete" });
    await putBytes(started.body.parts[0]!.url, bytes);
    expect((await complete(ben, started.body.id)).body).toMatchObject({ code: "attachment_not_found" });
    expect((await complete(ann, started.body.id)).body).toMatchObject({ state: "uploaded", size: 3000 });
    // Not downloadable before an item holds it; nobody else's item may take it.
    expect((await download(ann, started.body.id)).body).toMatchObject({ code: "attachment_not_found" });
    expect((await create(ben, "file", drive.id, { file: started.body.id })).body).toMatchObject({ code: "attachment_not_found" });
    expect((await create(ann, "file", drive.id)).status).toBe(422);
    expect((await create(ann, "folder", drive.id, { file: started.body.id })).status).toBe(422);

    const file = (await create(ann, "file", drive.id, { file: started.body.id })).body.item;
    expect(file).toMatchObject({ kind: "file", file_id: started.body.id, size: 3000, parent: drive.id });
    // One upload, one item.
    expect((await create(ann, "file", drive.id, { file: started.body.id })).body).toMatchObject({ code: "attachment_not_found" });
    // Nothing goes into a file.
    expect((await create(ann, "folder", file.id)).body).toMatchObject({ code: "drive_parent_invalid" });
    expect((await load(ben)).body.items.find((i) => i.id === file.id)).toMatchObject({ file_id: started.body.id, size: 3000 });

    const link = await download(ben, started.body.id);
    expect(link.body.size).toBe(3000);
    const fetched = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
    expect(fetched.equals(bytes)).toBe(true);
    expect((await download(outsider, started.body.id)).body).toMatchObject({ code: "group_forbidden" });
    expect((await get(ann, `/api/drive/${group}/files/${started.body.id}?thumb=1`)).body).toMatchObject({ code: "attachment_not_found" });
    // Another group's id for the same file: not there.
    const other = await groupTeam("Other files");
    expect((await get(other.ann, `/api/drive/${other.group}/files/${started.body.id}`)).body).toMatchObject({ code: "attachment_not_found" });

    // Deleted with its item: the record, the upload and the bytes.
    expect((await destroy(ann, file.id)).body).toMatchObject({ deleted: [file.id] });
    expect((await download(ann, started.body.id)).body).toMatchObject({ code: "attachment_not_found" });
    expect((await fetch(link.body.url)).status).toBe(404);
    expect((await upload(outsider)).body).toMatchObject({ code: "group_forbidden" });
    expect((await upload(ann, 2 * 1024 * 1024 * 1024)).status).toBe(422);
  });

  it("copies a drive file into a conversation ('Select from drive...') for members who may read the drive", async () => {
    const { admin, ann, ben, outsider, group } = await groupTeam();
    const { create } = await driveOf(group);
    const drive = (await create(ann, "drive", 0)).body.item;
    const bytes = randomBytes(5000);
    const started = await post<{ id: number; parts: { url: string }[] }>(ann, `/api/drive/${group}/files`, { size: bytes.length });
    await putBytes(started.body.parts[0]!.url, bytes);
    await post(ann, `/api/drive/${group}/files/${started.body.id}/complete`, {});
    const fileId = started.body.id;
    const { id: conversation, key } = await startConversation(ann, [ben]);
    const copy = (who: Who, body: Json, id = conversation) => post<{ id: number; size: number; state: string } & Json>(who, `/api/conversations/${id}/attachments/from-drive`, body);

    // An upload no item holds yet is not shared.
    expect((await copy(ann, { group, file: fileId })).body).toMatchObject({ code: "attachment_not_found" });
    await create(ann, "file", drive.id, { file: fileId });
    const copied = await copy(ann, { group, file: fileId });
    expect(copied.body).toMatchObject({ state: "uploaded", size: 5000 });
    // Attached to a message, Ben reads the same (still encrypted) bytes from the conversation.
    const sent = await http("POST", `/api/conversations/${conversation}/append`, { token: ann.api_token, body: { localid: "from-drive", payload: await encrypted(key, "see the drive file"), attachments: [copied.body.id] } });
    expect(sent.status).toBe(200);
    const got = await downloadAttachment(ben, conversation, copied.body.id);
    expect(Buffer.from(got.bytes!).equals(bytes)).toBe(true);

    // Someone outside the group, or outside the conversation, copies nothing; nor from another group's id.
    const { id: theirs } = await startConversation(admin, [outsider]);
    expect((await copy(outsider, { group, file: fileId }, theirs)).body).toMatchObject({ code: "group_forbidden" });
    expect((await copy(outsider, { group, file: fileId })).status).toBe(403);
    const other = await groupTeam("Other drive");
    expect((await copy(ann, { group: other.group, file: fileId })).body).toMatchObject({ code: "group_forbidden" });
    expect((await copy(ann, { group, file: 999_999_999 })).body).toMatchObject({ code: "attachment_not_found" });
    expect((await copy(ann, { group: "1e3", file: fileId })).status).toBe(422);
    // A member for whom the drive page is closed copies nothing from it.
    const menu = await get<{ menu: { id: number; reserved: string | null }[] }>(admin, `/api/groups/${group}`);
    const page = menu.body.menu.find((p) => p.reserved === "drive")!;
    expect((await post(admin, `/api/pages/${page.id}/permit`, { read: [{ role: false, id: ann.id }], use: [] })).status).toBe(200);
    const { id: bens } = await startConversation(ben, [ann]);
    expect((await copy(ben, { group, file: fileId }, bens)).body).toMatchObject({ code: "page_forbidden" });
  });
});
