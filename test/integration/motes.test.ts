import { type MotePayload, generateRecordId, generateSymmetricKey, openComment, openMote, sealComment, sealMote } from "@sealwork/crypto";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { putBytes } from "../support/attachments";
import { fire } from "../support/attack";
import { getAs as get, groupTeam, postAs as post, revokeMember } from "../support/groups";

type Json = Record<string, unknown>;
type Who = Awaited<ReturnType<typeof groupTeam>>["ann"];
interface Mote {
  id: number;
  record_id: string;
  group_id: number;
  domain_id: number;
  type_id: number;
  source_id: number;
  timestamp: number;
  relationships: { field: string; id: number }[];
  payload: string;
  dockey: string;
  epoch: number;
  size: number;
  comments: number;
  files: number[];
  editable: boolean;
}
interface Comment {
  id: number;
  record_id: string;
  mote_id: number;
  source_id: number;
  payload: string;
  dockey: string;
  epoch: number;
  deletable: boolean;
}

/**
 * The motes' routes over HTTP (docs/api.md, Records (motes)): payloads sealed with the crypto
 * package as the browser seals them, under a stand-in group key of epoch 0 (the server cannot
 * tell); the server checks shapes, pages, epochs and who may do what.
 */
async function motesOf(group: number) {
  const key = await generateSymmetricKey();
  const sealed = async (payload: MotePayload, recordId = generateRecordId(), epoch = 0) => ({ record_id: recordId, ...(await sealMote(key, { groupId: group, recordId, epoch }, payload)) });
  const create = async (who: Who, page: number, payload: MotePayload = { title: "Card" }, over: Json = {}) =>
    post<{ mote: Mote } & Json>(who, "/api/motes", { group_id: group, page_id: page, ...(await sealed(payload)), ...over });
  const edit = async (who: Who, mote: Mote, payload: MotePayload, over: Json = {}) => {
    const { record_id: _, ...fresh } = await sealed(payload, mote.record_id);
    return post<{ mote: Mote } & Json>(who, `/api/motes/${mote.id}`, { _method: "PATCH", ...fresh, ...over });
  };
  const destroy = (who: Who, id: number | string) => post<{ deleted: number } & Json>(who, `/api/motes/${id}`, { _method: "DELETE" });
  const list = (who: Who, page: number, query = "") => get<{ motes: Mote[]; next: number | null; can_create: boolean; epoch: number; needs_rekey: boolean } & Json>(who, `/api/motes?page=${page}${query}`);
  const open = (mote: Mote) => openMote(key, mote, { groupId: group, recordId: mote.record_id, epoch: mote.epoch });
  const comment = async (who: Who, moteId: number, text: string, recordId = generateRecordId()) =>
    post<{ comments: Comment[] } & Json>(who, `/api/motes/${moteId}/comment`, { record_id: recordId, ...(await sealComment(key, { groupId: group, recordId, epoch: 0 }, { text })) });
  const openC = (c: Comment) => openComment(key, c, { groupId: group, recordId: c.record_id, epoch: c.epoch });
  return { key, sealed, create, edit, destroy, list, open, comment, openC };
}

async function pageOf(admin: Who, group: number, type = "pinboard", name = "Board"): Promise<number> {
  const made = await post<{ id: number }>(admin, "/api/pages", { group, name, type });
  expect(made.status).toBe(200);
  return made.body.id;
}

/** A restricted page's first key generation, with a stand-in copy for its administrator (page-keys.test.ts tests the route). */
async function firstPageKey(admin: Who, page: number): Promise<void> {
  const copy = { sealed: "sealed", signature: "sig", sealer: admin.id, sealerKeyId: "key-1", linkDigest: null };
  expect((await post(admin, `/api/pages/${page}/keys`, { generation: 1, copies: [{ user_id: admin.id, copy }] })).status).toBe(200);
}

async function reservedPage(admin: Who, group: number, reserved: string): Promise<number> {
  const menu = await get<{ menu: { id: number; reserved: string | null }[] }>(admin, `/api/groups/${group}`);
  return menu.body.menu.find((p) => p.reserved === reserved)!.id;
}

const card: MotePayload = { title: "Grüezi", content: "Termin", tags: ["legal"], event_start: "2027-03-01T09:00", event_end: "2027-03-01T10:00", cf_amount: { amount: 217.5, currency: "HKD" } };

describe("motes", () => {
  it("members create, list, read, edit and delete cards; the payload comes back as sealed; a retry stores one", async () => {
    const { admin, ann, ben, outsider, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const m = await motesOf(group);

    const made = await m.create(ann, page, card, { type_id: 4 });
    expect(made.status).toBe(200);
    expect(made.body.mote).toMatchObject({ group_id: group, domain_id: page, type_id: 4, source_id: ann.id, epoch: 0, comments: 0, editable: true, relationships: [] });
    expect(await m.open(made.body.mote)).toEqual(card);

    // The same record id again, and several times at once on fresh connections: one mote.
    const body = { group_id: group, page_id: page, ...(await m.sealed({ title: "retried" })) };
    const tries = await Promise.all([0, 1, 2].map(() => fire({ method: "POST", path: "/api/motes", token: ann.api_token, body })));
    expect(tries.map((t) => t.status)).toEqual([200, 200, 200]);
    expect(new Set(tries.map((t) => (t.body.mote as Mote).id)).size).toBe(1);
    expect((await post(ann, "/api/motes", body)).body).toMatchObject({ mote: { id: (tries[0]!.body.mote as Mote).id } });
    expect((await post(ben, "/api/motes", body)).body).toMatchObject({ code: "record_id_taken" });

    const other = await m.create(ben, page, { title: "Ben's" });
    const listed = await m.list(ben, page);
    expect(listed.status).toBe(200);
    expect(listed.body.motes.map((x) => x.id)).toEqual([other.body.mote.id, (tries[0]!.body.mote as Mote).id, made.body.mote.id]);
    expect(listed.body.motes.map((x) => x.editable)).toEqual([true, false, false]);
    expect(listed.body).toMatchObject({ can_create: true, epoch: 0, needs_rekey: false, next: null });
    // Paged, newest first.
    const first = await m.list(ann, page, "&limit=2");
    expect(first.body.motes).toHaveLength(2);
    const rest = await m.list(ann, page, `&limit=2&before=${first.body.next}`);
    expect(rest.body.motes.map((x) => x.id)).toEqual([made.body.mote.id]);

    const one = await get<{ mote: Mote; comments: Comment[]; attrib: Json }>(ben, `/api/motes/${made.body.mote.id}`);
    expect(one.body.mote).toMatchObject({ id: made.body.mote.id, editable: false });
    expect(one.body.comments).toEqual([]);

    // Ann edits her card: a new payload under a new key; Ben may not; the group's administrator may.
    const edited = await m.edit(ann, made.body.mote, { ...card, title: "Neu" });
    expect(edited.status).toBe(200);
    expect(edited.body.mote.dockey).not.toBe(made.body.mote.dockey);
    expect((await m.open(edited.body.mote)).title).toBe("Neu");
    expect((await m.edit(ben, made.body.mote, { title: "Ben was here" })).body).toMatchObject({ code: "mote_edit_forbidden", message: "You do not have access to edit this object." });
    expect((await m.edit(admin, made.body.mote, { title: "Tidied" })).status).toBe(200);
    expect((await m.destroy(ben, made.body.mote.id)).body).toMatchObject({ code: "mote_edit_forbidden" });

    // Outsiders see nothing: not the page, not a card by id.
    expect((await m.list(outsider, page)).body).toMatchObject({ code: "page_forbidden" });
    expect((await m.create(outsider, page)).body).toMatchObject({ code: "group_forbidden" });
    expect((await get(outsider, `/api/motes/${made.body.mote.id}`)).body).toMatchObject({ code: "mote_not_found" });
    expect((await m.edit(outsider, made.body.mote, { title: "x" })).body).toMatchObject({ code: "mote_not_found" });
    expect((await m.destroy(outsider, made.body.mote.id)).body).toMatchObject({ code: "mote_not_found" });

    expect((await m.destroy(ann, made.body.mote.id)).body).toEqual({ deleted: made.body.mote.id });
    expect((await m.destroy(ann, made.body.mote.id)).body).toMatchObject({ code: "mote_not_found" });
    expect((await get(ann, `/api/motes/${made.body.mote.id}`)).status).toBe(404);
    expect((await m.list(ann, page)).body.motes).toHaveLength(2);
    // Its record id went with it: a new card may take it.
    expect((await post(ann, "/api/motes", { group_id: group, page_id: page, ...(await m.sealed({ title: "again" }, made.body.mote.record_id)) })).status).toBe(200);
  });

  it("refuses bad input with a stable code and writes nothing", async () => {
    const { admin, ann, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const m = await motesOf(group);
    const before = (await m.list(ann, page)).body.motes.length;
    // What is not sealed, or sealed for another epoch, is not taken.
    expect((await m.create(ann, page, card, { payload: "Quarterly plans" })).body).toMatchObject({ code: "mote_payload_invalid" });
    expect((await m.create(ann, page, card, { dockey: "raw key" })).body).toMatchObject({ code: "mote_payload_invalid" });
    expect((await m.create(ann, page, card, { epoch: 1 })).body).toMatchObject({ code: "epoch_stale" });
    // Record ids in one spelling only; no control characters anywhere.
    for (const record_id of ["not-a-record-id", `${generateRecordId().slice(0, 21)}B`, `${generateRecordId().slice(0, 21)}\u0000`, ` ${generateRecordId()}`, generateRecordId().replace(/.$/, "\n")]) {
      expect((await m.create(ann, page, card, { record_id })).body, JSON.stringify(record_id)).toMatchObject({ code: "mote_invalid", message: "Invalid mote parameters!" });
    }
    for (const over of [{ group_id: "1" }, { page_id: 0 }, { type_id: -1 }, { epoch: -1 }, { relationships: [{ field: "ref\u0007", id: 1 }] }, { relationships: "1" }, { extra: true }, { payload: "" }]) {
      expect((await m.create(ann, page, card, over)).body, JSON.stringify(over)).toMatchObject({ code: "mote_invalid" });
    }
    // Pages that take no cards, pages of another group, relationships to cards elsewhere.
    expect((await m.create(ann, await reservedPage(admin, group, "drive"))).body).toMatchObject({ code: "mote_page_invalid" });
    expect((await m.create(ann, 999_999_999)).body).toMatchObject({ code: "mote_page_invalid" });
    const other = await groupTeam("Other");
    const otherPage = await pageOf(other.admin, other.group);
    expect((await m.create(ann, otherPage)).body).toMatchObject({ code: "mote_page_invalid" });
    const foreign = await (await motesOf(other.group)).create(other.ann, otherPage);
    expect((await m.create(ann, page, card, { relationships: [{ field: "ref", id: foreign.body.mote.id }] })).body).toMatchObject({ code: "mote_relation_invalid" });
    expect((await m.create(ann, page, card, { relationships: [{ field: "ref", id: 999_999_999 }] })).body).toMatchObject({ code: "mote_relation_invalid" });
    // A body that is not JSON, or too large.
    expect((await http("POST", "/api/motes", { token: ann.api_token, raw: "{", headers: { "content-type": "application/json" } })).body).toMatchObject({ code: "bad_request" });
    expect((await m.create(ann, page, card, { payload: "x".repeat(1024 * 1024) })).body).toMatchObject({ code: "payload_too_large" });
    // Ids in odd spellings are not ids.
    for (const id of ["01", "1e3", "0x10", "-1", "1.0", "+1", "1%20", "%00"]) {
      expect((await get(ann, `/api/motes/${id}`)).status, id).toBe(422);
      expect((await m.destroy(ann, id)).status, id).toBe(422);
      expect((await get(ann, `/api/motes?page=${id}`)).status, id).toBe(422);
    }
    expect((await m.list(ann, page)).body.motes).toHaveLength(before);
  });

  it("holds to the page's permissions: a read-only page member reads, and writes nothing", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const m = await motesOf(group);
    const mine = (await m.create(ann, page)).body.mote;
    expect((await post(admin, `/api/pages/${page}/permit`, { read: [{ role: false, id: ann.id }], use: [{ role: false, id: admin.id }] })).status).toBe(200);

    const readOnly = await m.list(ann, page);
    expect(readOnly.status).toBe(200);
    expect(readOnly.body.can_create).toBe(false);
    expect(readOnly.body.motes[0]!.editable).toBe(false);
    const refused = { code: "mote_read_only", message: "Not allowed to edit or create items from this page!" };
    expect((await m.create(ann, page)).body).toMatchObject(refused);
    expect((await m.edit(ann, mine, { title: "mine still?" })).body).toMatchObject(refused);
    expect((await m.destroy(ann, mine.id)).body).toMatchObject(refused);
    expect((await get(ann, `/api/motes/${mine.id}/canI?permission=read`)).body).toEqual({ grant: true });
    expect((await get(ann, `/api/motes/${mine.id}/canI?permission=write`)).body).toEqual({ grant: false });
    // Ben is on neither list: he does not see the page, nor its cards.
    expect((await m.list(ben, page)).body).toMatchObject({ code: "page_forbidden" });
    expect((await get(ben, `/api/motes/${mine.id}`)).body).toMatchObject({ code: "mote_not_found" });
    expect((await get(ben, `/api/motes/${mine.id}/canI`)).body).toMatchObject({ code: "mote_not_found" });
    expect((await m.create(ben, page)).body).toMatchObject({ code: "page_forbidden" });
    // The group's administrator may change everything; on a page restricted now, under its key
    // (page-keys.test.ts: the administrator's browser makes it; the server sees only its generation).
    expect((await m.edit(admin, mine, { title: "admin" })).body).toMatchObject({ code: "page_key_required" });
    await firstPageKey(admin, page);
    expect((await m.edit(admin, mine, { title: "admin" }, { page_key: 1 })).status).toBe(200);
    expect((await get(admin, `/api/motes/${mine.id}/canI?permission=write`)).body).toEqual({ grant: true });
    expect((await get(admin, `/api/motes/${mine.id}/canI?permission=delete`)).status).toBe(422);
  });

  it("takes nothing from a removed member, nothing sealed for an old epoch, and nothing new while a removal waits", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const m = await motesOf(group);
    const bens = (await m.create(ben, page)).body.mote;
    await revokeMember(admin, group, { member_uid: ben.id });
    expect((await m.create(ann, page)).body).toMatchObject({ code: "rekey_pending" });
    expect((await m.edit(ben, bens, { title: "still here?" })).body).toMatchObject({ code: "mote_not_found" });
    expect((await m.destroy(ben, bens.id)).body).toMatchObject({ code: "mote_not_found" });
    expect((await m.list(ben, page)).body).toMatchObject({ code: "page_forbidden" });
    expect((await get(ben, `/api/motes/relationMotes?gid=${group}&ids=${bens.id}`)).body).toMatchObject({ code: "group_forbidden" });
    expect((await m.comment(ben, bens.id, "hello")).body).toMatchObject({ code: "mote_not_found" });
    await http("POST", `/api/groups/${group}/log`, { token: admin.api_token, body: { head: -1, rekey: { epoch: 1, link: "link" } } });
    expect((await m.create(ann, page)).body).toMatchObject({ code: "epoch_stale" });
    expect((await m.edit(admin, bens, { title: "old epoch" })).body).toMatchObject({ code: "epoch_stale" });
    const fresh = await m.create(ann, page, { title: "new" }, await (async () => {
      const recordId = generateRecordId();
      return { record_id: recordId, ...(await sealMote(m.key, { groupId: group, recordId, epoch: 1 }, { title: "new" })) };
    })());
    expect(fresh.body.mote).toMatchObject({ epoch: 1 });
    expect((await m.list(ann, page)).body).toMatchObject({ epoch: 1, needs_rekey: false });
  });

  it("multipatch changes several cards of one group at once, or none", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const second = await pageOf(admin, group, "blog", "Blog");
    const m = await motesOf(group);
    const a = (await m.create(ann, page, { title: "a" })).body.mote;
    const b = (await m.create(ann, second, { title: "b" })).body.mote;
    const bens = (await m.create(ben, page, { title: "ben" })).body.mote;
    const change = async (mote: Mote, title: string, over: Json = {}) => {
      const { record_id: _, ...sealed } = await m.sealed({ title }, mote.record_id);
      return { id: mote.id, domain_id: mote.domain_id, ...sealed, ...over };
    };
    const patch = (who: Who, body: unknown) => http<{ success: number[] } & Json>("PATCH", "/api/motes/multipatch", { token: who.api_token, body });
    const titles = async () => Promise.all([a, b, bens].map(async (x) => (await m.open((await get<{ mote: Mote }>(admin, `/api/motes/${x.id}`)).body.mote)).title));

    expect((await patch(ann, { group_id: group, quick: 1, motes: [await change(a, "a2"), await change(b, "b2")] })).body).toEqual({ success: [a.id, b.id] });
    expect(await titles()).toEqual(["a2", "b2", "ben"]);
    // Through POST with _method too.
    expect((await post(ann, "/api/motes/multipatch", { _method: "PATCH", group_id: group, motes: [await change(a, "a3")] })).body).toEqual({ success: [a.id] });

    // The request as a whole: 'Invalid parameters!'.
    for (const body of [{ motes: [await change(a, "x")] }, { group_id: group }, { group_id: group, motes: [] }, { group_id: group, motes: "1" }, { group_id: "x", motes: [await change(a, "x")] }, []]) {
      expect((await patch(ann, body)).body, JSON.stringify(body).slice(0, 80)).toMatchObject({ code: "mote_patch_invalid", message: "Invalid parameters!" });
    }
    // Half valid, half not: nothing is written.
    const halves: [string, Json][] = [
      ["mote_invalid", await change(b, "x", { id: 0 })],
      ["mote_invalid", await change(b, "x", { id: -3 })],
      ["mote_invalid", { ...(await change(b, "x")), domain_id: undefined }],
      ["mote_invalid", { ...(await change(b, "x")), payload: undefined }],
      ["mote_invalid", await change(b, "x", { domain_id: page })],
      ["mote_invalid", await change(a, "twice")],
      ["mote_payload_invalid", await change(b, "x", { payload: "plain text" })],
      ["mote_edit_forbidden", await change(bens, "x")],
      ["mote_not_found", await change(b, "x", { id: 999_999_999 })],
      ["epoch_stale", await change(b, "x", { epoch: 3 })],
    ];
    for (const [code, bad] of halves) {
      const reply = await patch(ann, { group_id: group, motes: [await change(a, "half"), bad] });
      expect(reply.body, code).toMatchObject({ code });
      if (code === "mote_invalid") expect(reply.body.message).toMatch(/Invalid mote parameters!|Each mote appears once|A mote stays on its page/);
    }
    expect(await titles()).toEqual(["a3", "b2", "ben"]);
    // Another group's card, through this group or its own: not found, nothing written.
    const other = await groupTeam("Other");
    const otherPage = await pageOf(other.admin, other.group);
    const om = await motesOf(other.group);
    const foreign = (await om.create(other.ann, otherPage, { title: "foreign" })).body.mote;
    expect((await patch(ann, { group_id: group, motes: [await change(a, "x"), await change(foreign, "x")] })).body).toMatchObject({ code: "mote_not_found" });
    expect((await patch(ann, { group_id: other.group, motes: [await change(foreign, "x")] })).body).toMatchObject({ code: "group_forbidden" });
    expect((await om.open((await get<{ mote: Mote }>(other.ann, `/api/motes/${foreign.id}`)).body.mote)).title).toBe("foreign");
    expect(await titles()).toEqual(["a3", "b2", "ben"]);
    // The group's administrator may change anyone's.
    expect((await patch(admin, { group_id: group, motes: [await change(bens, "tidied")] })).status).toBe(200);
  });

  it("relationMotes fetches readable cards of one group by id; relationships point within the group; best pages", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const hidden = await pageOf(admin, group, "calendar", "Secret");
    const blog = await pageOf(admin, group, "blog", "Blog");
    await post(admin, `/api/pages/${hidden}/permit`, { read: [{ role: false, id: admin.id }], use: [] });
    await firstPageKey(admin, hidden);
    const m = await motesOf(group);
    const a = (await m.create(ann, page, { title: "a" })).body.mote;
    const secret = (await m.create(admin, hidden, { title: "secret" }, { page_key: 1 })).body.mote;
    const linked = await m.create(ann, page, { title: "linked" }, { relationships: [{ field: "ref", id: a.id }, { field: "ref", id: secret.id }] });
    expect(linked.body.mote.relationships).toEqual([{ field: "ref", id: a.id }, { field: "ref", id: secret.id }]);
    expect((await m.edit(ann, linked.body.mote, { title: "self" }, { relationships: [{ field: "ref", id: linked.body.mote.id }] })).body).toMatchObject({ code: "mote_relation_invalid" });
    const other = await groupTeam("Other");
    const foreign = (await (await motesOf(other.group)).create(other.ann, await pageOf(other.admin, other.group), { title: "f" })).body.mote;

    const ids = [linked.body.mote.id, a.id, secret.id, foreign.id, 999_999_999].join(",");
    const fetched = await get<{ motes: Mote[] }>(ben, `/api/motes/relationMotes?gid=${group}&ids=${ids}&prefetch=1`);
    expect(fetched.body.motes.map((x) => x.id)).toEqual([linked.body.mote.id, a.id]);
    expect((await get<{ motes: Mote[] }>(admin, `/api/motes/relationMotes?gid=${group}&ids=${secret.id}!${a.id}`)).body.motes.map((x) => x.id)).toEqual([secret.id, a.id]);
    for (const bad of ["", "1,,2", "1,x", "01", Array.from({ length: 101 }, (_, i) => i + 1).join(",")]) {
      expect((await get(ben, `/api/motes/relationMotes?gid=${group}&ids=${bad}`)).status, bad.slice(0, 20)).toBe(422);
    }
    expect((await get(ben, `/api/motes/relationMotes?gid=${other.group}&ids=${foreign.id}`)).body).toMatchObject({ code: "group_forbidden" });

    expect((await get(ben, `/api/pages/best?type=pinboard&mote_id=${a.id}`)).body).toEqual({ pages: [page] });
    expect((await get(ben, `/api/pages/best?type=blog&mote_id=${a.id}`)).body).toEqual({ pages: [blog] });
    expect((await get(ben, `/api/pages/best?type=calendar&mote_id=${a.id}`)).body).toEqual({ pages: [] });
    expect((await get(admin, `/api/pages/best?type=calendar&mote_id=${a.id}`)).body).toEqual({ pages: [hidden] });
    expect((await get(ben, `/api/pages/best?type=pinboard&mote_id=${foreign.id}`)).body).toMatchObject({ code: "mote_not_found" });
    expect((await get(ben, `/api/pages/best?type=drive&mote_id=${a.id}`)).status).toBe(422);
  });

  it("comments: posted by readers, sealed as records of their own, deleted by their author or a group administrator", async () => {
    const { admin, ann, ben, outsider, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const m = await motesOf(group);
    const mote = (await m.create(ann, page)).body.mote;

    const recordId = generateRecordId();
    const first = await m.comment(ben, mote.id, "Schön 👍", recordId);
    expect(first.status).toBe(200);
    expect(first.body.comments).toHaveLength(1);
    expect(await m.openC(first.body.comments[0]!)).toEqual({ text: "Schön 👍" });
    // A retry stores one; its record id is no card's.
    expect((await m.comment(ben, mote.id, "Schön 👍", recordId)).body.comments).toHaveLength(1);
    expect((await post(ben, "/api/motes", { group_id: group, page_id: page, ...(await m.sealed({ title: "x" }, recordId)) })).body).toMatchObject({ code: "record_id_taken" });
    const annComment = (await m.comment(ann, mote.id, "Danke")).body.comments[1]!;
    expect((await get<{ mote: Mote; comments: Comment[] }>(ann, `/api/motes/${mote.id}`)).body).toMatchObject({ mote: { comments: 2 } });

    // Nothing unsealed, nothing empty, nothing from outside.
    expect((await post(ben, `/api/motes/${mote.id}/comment`, { record_id: generateRecordId(), payload: "plain words", dockey: "key", epoch: 0 })).body).toMatchObject({ code: "mote_payload_invalid" });
    expect((await post(ben, `/api/motes/${mote.id}/comment`, { record_id: generateRecordId(), payload: "", dockey: "", epoch: 0 })).body).toMatchObject({ code: "mote_invalid" });
    expect((await post(ben, `/api/motes/${mote.id}/comment`, { comment: "" })).body).toMatchObject({ code: "mote_invalid" });
    expect((await m.comment(outsider, mote.id, "hi")).body).toMatchObject({ code: "mote_not_found" });

    const remove = (who: Who, moteId: number, commentId: unknown) => post<Json>(who, `/api/motes/${moteId}/comment/delete`, { comment_id: commentId });
    expect((await remove(ann, mote.id, first.body.comments[0]!.id)).body).toMatchObject({ code: "comment_delete_forbidden" });
    // A comment id used under another card: not found there.
    const elsewhere = (await m.create(ann, page)).body.mote;
    expect((await remove(ben, elsewhere.id, first.body.comments[0]!.id)).body).toMatchObject({ code: "comment_not_found" });
    expect((await remove(ben, mote.id, "1")).body).toMatchObject({ code: "validation" });
    expect((await remove(ben, mote.id, first.body.comments[0]!.id)).body).toEqual({ success: true });
    expect((await remove(ben, mote.id, first.body.comments[0]!.id)).body).toMatchObject({ code: "comment_not_found" });
    expect((await remove(admin, mote.id, annComment.id)).body).toEqual({ success: true });
    expect((await get<{ mote: Mote; comments: Comment[] }>(ann, `/api/motes/${mote.id}`)).body).toMatchObject({ mote: { comments: 0 }, comments: [] });

    // A card's deletion takes its comments and frees their record ids.
    const c = (await m.comment(ben, mote.id, "bye")).body.comments[0]!;
    expect((await m.destroy(ann, mote.id)).status).toBe(200);
    expect((await post(ben, "/api/motes", { group_id: group, page_id: page, ...(await m.sealed({ title: "x" }, c.record_id)) })).status).toBe(200);
  });

  it("a sealed card used where it was not sealed for does not open: another card's URL, another group, another record id", async () => {
    const { admin, ann, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const m = await motesOf(group);
    const a = (await m.create(ann, page, { title: "a" })).body.mote;
    const b = (await m.create(ann, page, { title: "b" })).body.mote;
    // B's sealed payload and key, sent to A's URL: the server cannot tell, the browser can.
    const moved = await post<{ mote: Mote }>(ann, `/api/motes/${a.id}`, { _method: "PATCH", payload: b.payload, dockey: b.dockey, epoch: 0 });
    expect(moved.status).toBe(200);
    await expect(m.open(moved.body.mote)).rejects.toMatchObject({ code: "decrypt_failed" });
    // Sealed for another group, created here under the same record id.
    const other = await groupTeam("Other");
    const recordId = generateRecordId();
    const foreign = await sealMote(m.key, { groupId: other.group, recordId, epoch: 0 }, { title: "elsewhere" });
    const stored = await post<{ mote: Mote }>(ann, "/api/motes", { group_id: group, page_id: page, record_id: recordId, ...foreign });
    await expect(m.open(stored.body.mote)).rejects.toMatchObject({ code: "decrypt_failed" });
    // A comment's sealed text as a card's payload does not open as a card.
    const c = (await m.comment(ann, b.id, "just a comment")).body.comments[0]!;
    const asCard = await post<{ mote: Mote }>(ann, "/api/motes", { group_id: group, page_id: page, record_id: generateRecordId(), payload: c.payload, dockey: c.dockey, epoch: 0 });
    await expect(m.open(asCard.body.mote)).rejects.toMatchObject({ code: "decrypt_failed" });
    // A route reached with a method it was not made for.
    for (const method of ["GET", "PUT", "POST", "delete", "PATCH "]) {
      const reply = await post(ann, `/api/motes/${a.id}`, { _method: method, payload: b.payload, dockey: b.dockey, epoch: 0 });
      expect(reply.status, method).toBeGreaterThanOrEqual(400);
      expect(reply.status, method).toBeLessThan(500);
    }
    expect((await http("PUT", `/api/motes/${a.id}`, { token: ann.api_token, body: {} })).status).toBeLessThan(500);
    expect((await m.open((await get<{ mote: Mote }>(ann, `/api/motes/${b.id}`)).body.mote)).title).toBe("b");
  });

  it("parallel creations of one record id by two people on fresh connections: exactly one wins", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const m = await motesOf(group);
    for (let round = 0; round < 3; round++) {
      const recordId = generateRecordId();
      const body = { group_id: group, page_id: page, ...(await m.sealed({ title: `race ${round}` }, recordId)) };
      const hits = await Promise.all([ann, ben, ann, ben].map((who) => fire({ method: "POST", path: "/api/motes", token: who.api_token, body })));
      const winners = hits.filter((h) => h.status === 200);
      expect(new Set(winners.map((h) => (h.body.mote as Mote).source_id)).size, `round ${round}`).toBe(1);
      expect(new Set(winners.map((h) => (h.body.mote as Mote).id)).size).toBe(1);
      expect(hits.filter((h) => h.status !== 200).every((h) => h.status === 409 && h.body.code === "record_id_taken")).toBe(true);
    }
    expect((await m.list(admin, page)).body.motes).toHaveLength(3);
  });

  it("keeps a card's files in the cards' space: uploaded for a page, listed by one card, served to its readers only, gone with the card or when an edit drops them", async () => {
    const { admin, ann, ben, outsider, group } = await groupTeam();
    const page = await pageOf(admin, group);
    const m = await motesOf(group);
    const bytes = randomBytes(3000);
    type Started = { id: number; parts: { url: string }[]; multipart: boolean } & Json;
    const start = (who: Who, body: Json = { page_id: page, size: bytes.length }) => post<Started>(who, "/api/motes/files", body);
    const complete = (who: Who, id: number) => post<Json>(who, `/api/motes/files/${id}/complete`, {});
    const download = (who: Who, id: number | string, query = "") => get<{ url: string; size: number } & Json>(who, `/api/motes/files/${id}${query}`);
    async function uploaded(who: Who = ann): Promise<number> {
      const started = await start(who);
      expect(started.status).toBe(200);
      await putBytes(started.body.parts[0]!.url, bytes);
      expect((await complete(who, started.body.id)).body).toMatchObject({ state: "uploaded", size: 3000 });
      return started.body.id;
    }

    // Only for a page of the group that takes cards, by whoever may add cards there.
    expect((await start(outsider)).body).toMatchObject({ code: "group_forbidden" });
    expect((await start(ann, { page_id: await reservedPage(admin, group, "drive"), size: 100 })).body).toMatchObject({ code: "mote_page_invalid" });
    expect((await start(ann, { page_id: page, size: 2 * 1024 * 1024 * 1024 })).status).toBe(422);
    const started = await start(ann);
    expect((await complete(ann, started.body.id)).body).toMatchObject({ code: "attachment_incomplete" });
    await putBytes(started.body.parts[0]!.url, bytes);
    expect((await complete(ben, started.body.id)).body).toMatchObject({ code: "attachment_not_found" });
    expect((await complete(ann, started.body.id)).body).toMatchObject({ state: "uploaded" });
    const fid = started.body.id;

    // Not served before a card lists it; nobody else's card may list it.
    expect((await download(ann, fid)).body).toMatchObject({ code: "attachment_not_found" });
    expect((await m.create(ben, page, { title: "Ben's" }, { files: [fid] })).body).toMatchObject({ code: "attachment_not_found" });
    expect((await m.create(ann, page, { title: "twice" }, { files: [fid, fid] })).status).toBe(422);
    const made = await m.create(ann, page, { title: "With a file" }, { files: [fid] });
    expect(made.body.mote).toMatchObject({ files: [fid] });
    // One file, one card.
    expect((await m.create(ann, page, { title: "Again" }, { files: [fid] })).body).toMatchObject({ code: "attachment_not_found" });

    const link = await download(ben, fid);
    expect(link.body.size).toBe(3000);
    expect(Buffer.from(await (await fetch(link.body.url)).arrayBuffer()).equals(bytes)).toBe(true);
    for (const odd of ["0x1", "1e3", "-1", "01", "1.0", "%20" + fid]) expect((await download(ben, odd)).status, odd).toBeGreaterThanOrEqual(400);
    expect((await download(outsider, fid)).body).toMatchObject({ code: "attachment_not_found" });
    expect((await download(ben, fid, "?thumb=1")).body).toMatchObject({ code: "attachment_not_found" });
    // Another group's member learns nothing of it either.
    const other = await groupTeam("Other cards");
    expect((await download(other.ann, fid)).body).toMatchObject({ code: "attachment_not_found" });

    // Two cards racing for one fresh file on fresh connections: one takes it.
    const raced = await uploaded();
    const bodies = await Promise.all([0, 1].map(async () => ({ group_id: group, page_id: page, files: [raced], ...(await m.sealed({ title: "race" })) })));
    const hits = await Promise.all(bodies.map((body) => fire({ method: "POST", path: "/api/motes", token: ann.api_token, body })));
    expect(hits.map((h) => h.status).sort()).toEqual([200, 404]);
    expect(hits.find((h) => h.status === 404)!.body).toMatchObject({ code: "attachment_not_found" });

    // An edit that drops the file deletes it; one that keeps it keeps it; a new one is taken.
    const second = await uploaded();
    const kept = await m.edit(ann, made.body.mote, { title: "Two files" }, { files: [fid, second] });
    expect(kept.body.mote).toMatchObject({ files: [fid, second] });
    const dropped = await m.edit(ann, kept.body.mote, { title: "One file" }, { files: [second] });
    expect(dropped.body.mote).toMatchObject({ files: [second] });
    expect((await download(ben, fid)).body).toMatchObject({ code: "attachment_not_found" });
    expect((await fetch(link.body.url)).status).toBe(404);
    // An edit that leaves the list out leaves it as it is.
    expect((await m.edit(ann, dropped.body.mote, { title: "Same file" })).body.mote).toMatchObject({ files: [second] });
    // Ben may not change Ann's card at all, files included.
    expect((await m.edit(ben, dropped.body.mote, { title: "mine" }, { files: [] })).status).toBe(403);

    // Deleted with its card: the record and the bytes.
    const secondLink = await download(ben, second);
    expect(secondLink.status).toBe(200);
    expect((await m.destroy(ann, made.body.mote.id)).status).toBe(200);
    expect((await download(ann, second)).body).toMatchObject({ code: "attachment_not_found" });
    expect((await fetch(secondLink.body.url)).status).toBe(404);
  });
});
