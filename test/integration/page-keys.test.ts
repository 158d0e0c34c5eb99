import { createHash } from "node:crypto";
import { db } from "@sealwork/core/db/service";
import { PageKeys } from "@sealwork/core/group/page-keys";
import { type MotePayload, generatePageKey, pageKeyLinkDigest, generateRecordId, generateSymmetricKey, sealComment, sealCommentForPage, sealMote, sealMoteForPage } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { burst, tally } from "../support/attack";
import { getAs as get, groupTeam, postAs as post, revokeMember } from "../support/groups";
import { registerKey } from "../support/keys";
import { createSession } from "../support/users";

type Json = Record<string, unknown>;
type Who = Awaited<ReturnType<typeof groupTeam>>["ann"];
interface Keys {
  restricted: boolean;
  generation: number;
  copies: { generation: number; copy: Json }[];
  links: { generation: number; link: string }[];
  rekey: { readers: number[]; missing: number[]; former: number[] } | null;
}
interface Mote {
  id: number;
  record_id: string;
  payload: string;
  dockey: string;
  epoch: number;
  page_key: number | null;
}

/**
 * Page keys over HTTP (docs/api.md, "Page keys"; docs/protocol.md, "Restricted pages"). Copies are
 * stand-ins here (the server checks whom they are for and who sealed them, not their
 * cryptography; the crypto unit tests and the browser test use the real ones); the cards are
 * sealed with the crypto package as the browser seals them.
 */
/** base64url(SHA-256) of a link's text: how a generation's copies name the link it carries (checked against the crypto package below). */
const digestOf = (link: string) => createHash("sha256").update(link, "utf8").digest("base64url");
const copyFor = (sealer: Who, userId: number, label = "g", link?: string) => ({
  user_id: userId,
  copy: { sealed: `sealed-${label}-for-${userId}`, signature: "sig", sealer: sealer.id, sealerKeyId: "key-1", linkDigest: link === undefined ? null : digestOf(link) },
});
const user = (who: Who) => ({ role: false, id: who.id });
const keysOf = (who: Who, page: number) => get<Keys & Json>(who, `/api/pages/${page}/keys`);
const storeKeys = (who: Who, page: number, body: Json) => post<Keys & Json>(who, `/api/pages/${page}/keys`, body);
const permit = (who: Who, page: number, body: Json) => post<Json>(who, `/api/pages/${page}/permit`, body);

async function boardOf(group: number, admin: Who) {
  const made = await post<{ id: number }>(admin, "/api/pages", { group, name: "HR", type: "pinboard" });
  expect(made.status).toBe(200);
  const page = made.body.id;
  const epochKey = await generateSymmetricKey();
  const pageKey = await generatePageKey();
  /** A card sealed under the group key (no page_key) or under the page key of `generation`. */
  const sealed = async (payload: MotePayload, generation?: number, recordId = generateRecordId()) =>
    generation === undefined
      ? { record_id: recordId, ...(await sealMote(epochKey, { groupId: group, recordId, epoch: 0 }, payload)) }
      : (({ generation: g, ...rest }) => ({ record_id: recordId, ...rest, epoch: 0, page_key: g }))(await sealMoteForPage(pageKey, { groupId: group, recordId, pageId: page, generation }, payload));
  const create = async (who: Who, generation?: number, payload: MotePayload = { title: "Lohn" }) =>
    post<{ mote: Mote } & Json>(who, "/api/motes", { group_id: group, page_id: page, ...(await sealed(payload, generation)) });
  const comment = async (who: Who, mote: number, generation?: number) => {
    const recordId = generateRecordId();
    const body =
      generation === undefined
        ? await sealComment(epochKey, { groupId: group, recordId, epoch: 0 }, { text: "hi" })
        : (({ generation: g, ...rest }) => ({ ...rest, epoch: 0, page_key: g }))(await sealCommentForPage(pageKey, { groupId: group, recordId, pageId: page, generation }, { text: "hi" }));
    return post<{ comments: (Json & { page_key: number | null })[] } & Json>(who, `/api/motes/${mote}/comment`, { record_id: recordId, ...body });
  };
  return { page, sealed, create, comment, epochKey, pageKey };
}

describe("page keys", () => {
  it("a reader whose account key moved no longer holds the current generation: their copy goes and they are missing until sealed for again", async () => {
    const { admin, ann, group } = await groupTeam();
    const first = await registerKey(ann);
    const b = await boardOf(group, admin);
    expect((await permit(admin, b.page, { read: [], use: [user(ann)] })).status).toBe(200);
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, admin.id), copyFor(admin, ann.id)] })).body).toMatchObject({ rekey: { missing: [], former: [] } });
    // Ann's new key in place of her first (the key-moved job): her copy was sealed for the old one.
    await registerKey(ann, first);
    await expect.poll(async () => (await keysOf(admin, b.page)).body.rekey, { timeout: 20_000 }).toEqual({ readers: [admin.id, ann.id].sort((x, y) => x - y), missing: [ann.id], former: [] });
    expect((await keysOf(ann, b.page)).body.copies).toEqual([]);
    expect((await keysOf(admin, b.page)).body.copies).toHaveLength(1);
    // The upkeep seals the same generation for the key she holds now.
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ann.id, "new key")] })).body).toMatchObject({ generation: 1, rekey: { missing: [], former: [] } });
    expect((await keysOf(ann, b.page)).body.copies).toEqual([{ generation: 1, copy: copyFor(admin, ann.id, "new key").copy }]);
  });

  it("an administrator who renews seals their own copy again: it replaces theirs (nobody else's), and the key-moved job leaves a copy sealed since the move", async () => {
    const { admin, ann, group } = await groupTeam();
    const first = await registerKey(admin);
    const b = await boardOf(group, admin);
    expect((await permit(admin, b.page, { read: [], use: [user(ann)] })).status).toBe(200);
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, admin.id), copyFor(admin, ann.id)] })).status).toBe(200);
    const mine = async () => (await keysOf(admin, b.page)).body.copies;
    // Their own copy again: it replaces the one they hold; the holders stay as they were. Anyone else's: refused.
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, admin.id, "again")] })).body).toMatchObject({ rekey: { missing: [], former: [] } });
    expect(await mine()).toEqual([{ generation: 1, copy: copyFor(admin, admin.id, "again").copy }]);
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ann.id, "again")] })).body).toMatchObject({ code: "page_key_invalid" });
    expect((await keysOf(ann, b.page)).body.copies).toEqual([{ generation: 1, copy: copyFor(admin, ann.id).copy }]);
    const holders = async () => (await db().entities.pagekey.get({ pageId: b.page, generation: 1 }).go()).data?.holders.slice().sort((x, y) => x - y);
    expect(await holders()).toEqual([admin.id, ann.id].sort((x, y) => x - y));

    // Their key moves; their browser stores the copy sealed for the new key, before or after the job ran.
    const movedAt = Date.now();
    await registerKey(admin, first);
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, admin.id, "renewed")] })).status).toBe(200);
    // The job (queued by the move, and once more here after the new copy): it stays, and so do they.
    await PageKeys.readerKeyMoved(group, admin.id, movedAt);
    await expect.poll(mine, { timeout: 20_000 }).toEqual([{ generation: 1, copy: copyFor(admin, admin.id, "renewed").copy }]);
    expect(await holders()).toEqual([admin.id, ann.id].sort((x, y) => x - y));
    expect((await keysOf(admin, b.page)).body.rekey).toMatchObject({ missing: [], former: [] });
    // A copy sealed before the move goes when the job runs (one it left behind, say, had it run first): put one back as if old.
    await db().entities.pagekeycopy.patch({ pageId: b.page, userId: admin.id, generation: 1 }).set({ at: movedAt - 1 }).go();
    await PageKeys.readerKeyMoved(group, admin.id, movedAt);
    expect(await mine()).toEqual([]);
    expect(await holders()).toEqual([ann.id]);
  });

  it("a restricted page takes cards under its current key only; copies go to readers only, each their own", async () => {
    const { admin, ann, ben, outsider, group } = await groupTeam();
    const b = await boardOf(group, admin);
    // Readable by the whole group: the group key, no page key.
    expect((await keysOf(ann, b.page)).body).toMatchObject({ restricted: false, generation: 0, copies: [], rekey: null });
    const open = (await b.create(ben)).body.mote;
    expect(open.page_key).toBeNull();
    const oldComment = (await b.comment(ben, open.id)).body.comments![0]!;
    expect(oldComment.page_key).toBeNull();
    expect((await b.create(ben, 1)).body).toMatchObject({ code: "page_key_unexpected" });
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ann.id)] })).body).toMatchObject({ code: "page_key_unexpected" });

    // Restricted to Ann: readers are Ann and Sue (administrator); Ben is outside.
    expect((await permit(admin, b.page, { read: [], use: [user(ann)] })).status).toBe(200);
    expect((await keysOf(admin, b.page)).body).toMatchObject({ restricted: true, generation: 0, rekey: { readers: [admin.id, ann.id].sort((x, y) => x - y), missing: [admin.id, ann.id].sort((x, y) => x - y), former: [] } });
    // No key yet: nothing can be stored, not under the group key either.
    expect((await b.create(ann)).body).toMatchObject({ code: "page_key_required" });
    expect((await b.create(ann, 1)).body).toMatchObject({ code: "page_key_required" });

    // Who may store copies, for whom, and which generation.
    expect((await storeKeys(ann, b.page, { generation: 1, copies: [copyFor(ann, ann.id)] })).body).toMatchObject({ code: "permit_forbidden" });
    expect((await storeKeys(ben, b.page, { generation: 1, copies: [copyFor(ben, ben.id)] })).body).toMatchObject({ code: "permit_forbidden" });
    expect((await storeKeys(outsider, b.page, { generation: 1, copies: [copyFor(outsider, outsider.id)] })).status).toBe(403);
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ann.id), copyFor(admin, ben.id)] })).body).toMatchObject({ code: "page_key_invalid" });
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, outsider.id)] })).body).toMatchObject({ code: "page_key_invalid" });
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(ann, ann.id)] })).body).toMatchObject({ code: "page_key_invalid" });
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ann.id), copyFor(admin, ann.id)] })).body).toMatchObject({ code: "page_key_invalid" });
    expect((await storeKeys(admin, b.page, { generation: 1, link: "x", copies: [copyFor(admin, ann.id)] })).body).toMatchObject({ code: "page_key_invalid" });
    expect((await storeKeys(admin, b.page, { generation: 2, copies: [copyFor(admin, ann.id)] })).body).toMatchObject({ code: "page_key_stale" });
    expect((await keysOf(admin, b.page)).body).toMatchObject({ generation: 0 });

    // The first generation carries no link: a copy naming one is refused.
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ann.id, "g", "x")] })).body).toMatchObject({ code: "page_key_invalid" });
    const made = await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ann.id)] });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ generation: 1, copies: [], rekey: { missing: [admin.id], former: [] } });
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ann.id, "again")] })).body).toMatchObject({ code: "page_key_invalid" });
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, admin.id)] })).body).toMatchObject({ rekey: { missing: [], former: [] } });
    // Each reader gets their own copy only; Ben and Olly get nothing.
    const anns = (await keysOf(ann, b.page)).body;
    expect(anns).toMatchObject({ restricted: true, generation: 1, rekey: null });
    expect(anns.copies).toEqual([{ generation: 1, copy: copyFor(admin, ann.id).copy }]);
    expect((await keysOf(ben, b.page)).body).toMatchObject({ code: "page_forbidden" });
    expect((await keysOf(outsider, b.page)).status).toBe(403);

    // Cards: under the current generation only; the group key and another generation are refused.
    expect((await b.create(ann)).body).toMatchObject({ code: "page_key_required" });
    expect((await b.create(ann, 2)).body).toMatchObject({ code: "page_key_stale" });
    const card = (await b.create(ann, 1)).body.mote;
    expect(card.page_key).toBe(1);
    expect((await b.comment(ann, card.id)).body).toMatchObject({ code: "page_key_required" });
    expect((await b.comment(ann, card.id, 1)).body.comments![0]).toMatchObject({ page_key: 1 });
    const { record_id: _, ...edit } = await b.sealed({ title: "Lohn 2" }, undefined, card.record_id);
    expect((await post(ann, `/api/motes/${card.id}`, { _method: "PATCH", ...edit })).body).toMatchObject({ code: "page_key_required" });
    // The card from before the restriction: re-sealed through the multipatch under the page key; the group key is refused there too.
    const under = async (generation?: number) => {
      const { record_id: __, ...rest } = await b.sealed({ title: "Alt" }, generation, open.record_id);
      return { id: open.id, domain_id: b.page, ...rest };
    };
    expect((await post(admin, "/api/motes/multipatch", { _method: "PATCH", group_id: group, motes: [await under()] })).body).toMatchObject({ code: "page_key_required" });
    expect((await post(admin, "/api/motes/multipatch", { _method: "PATCH", group_id: group, motes: [await under(1)] })).status).toBe(200);
    const { data: stored } = await db().entities.pagemote.get({ id: open.id }).go();
    expect(stored!.pageKey).toBe(1);
    // Its comment from before, under the group key: sealed anew under the page key by an administrator only.
    const reseal = async (who: Who, generation?: number, commentId = oldComment.id) => {
      const recordId = oldComment.record_id as string;
      const body =
        generation === undefined
          ? await sealComment(b.epochKey, { groupId: group, recordId, epoch: 0 }, { text: "hi" })
          : (({ generation: g, ...rest }) => ({ ...rest, epoch: 0, page_key: g }))(await sealCommentForPage(b.pageKey, { groupId: group, recordId, pageId: b.page, generation }, { text: "hi" }));
      return post<{ comments: (Json & { page_key: number | null })[] } & Json>(who, `/api/motes/${open.id}/comment/reseal`, { comments: [{ id: commentId, ...body }] });
    };
    expect((await reseal(ann, 1)).body).toMatchObject({ code: "mote_edit_forbidden" });
    expect((await reseal(admin)).body).toMatchObject({ code: "page_key_required" });
    expect((await reseal(admin, 2)).body).toMatchObject({ code: "page_key_stale" });
    expect((await reseal(admin, 1, card.id + 1000)).body).toMatchObject({ code: "comment_not_found" });
    expect((await reseal(admin, 1)).body.comments).toEqual([expect.objectContaining({ id: oldComment.id, page_key: 1 })]);
    // Ben, outside the page, is refused the cards by the server (and holds no key that opens them).
    expect((await get(ben, `/api/motes/${card.id}`)).body).toMatchObject({ code: "mote_not_found" });
    expect((await get(ben, `/api/motes?page=${b.page}`)).body).toMatchObject({ code: "page_forbidden" });

    // Emptying the lists: the page is the group's again; cards go under the group key.
    expect((await permit(admin, b.page, { read: [], use: [] })).status).toBe(200);
    expect((await b.create(ben, 1)).body).toMatchObject({ code: "page_key_unexpected" });
    expect((await b.create(ben)).status).toBe(200);
    expect((await keysOf(admin, b.page)).body).toMatchObject({ restricted: false, rekey: { former: [admin.id, ann.id].sort((x, y) => x - y) } });
  });

  it("a reader taken off the list or out of the group is 'former' until a new generation with its link; a member of another group stores nothing", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const b = await boardOf(group, admin);
    await permit(admin, b.page, { read: [user(ben)], use: [user(ann)] });
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ann.id), copyFor(admin, ben.id), copyFor(admin, admin.id)] })).status).toBe(200);
    // Ben taken off: he is former; the current generation still takes cards until the administrator's browser makes the next.
    await permit(admin, b.page, { read: [], use: [user(ann)] });
    expect((await keysOf(admin, b.page)).body.rekey).toMatchObject({ missing: [], former: [ben.id] });
    expect((await storeKeys(admin, b.page, { generation: 1, copies: [copyFor(admin, ben.id, "x")] })).body).toMatchObject({ code: "page_key_invalid" });
    expect((await storeKeys(admin, b.page, { generation: 2, copies: [copyFor(admin, ann.id, "2"), copyFor(admin, admin.id, "2")] })).body).toMatchObject({ code: "page_key_invalid" });
    // Each copy names the link its generation carries: none, or another link's digest, is refused.
    expect(digestOf("link-2-to-1")).toBe(await pageKeyLinkDigest("link-2-to-1"));
    for (const named of [undefined, "another link"]) {
      const copies = [copyFor(admin, ann.id, "2", "link-2-to-1"), copyFor(admin, admin.id, "2", named)];
      expect((await storeKeys(admin, b.page, { generation: 2, link: "link-2-to-1", copies })).body).toMatchObject({ code: "page_key_invalid" });
    }
    const next = await storeKeys(admin, b.page, { generation: 2, link: "link-2-to-1", copies: [copyFor(admin, ann.id, "2", "link-2-to-1")] });
    expect(next.body).toMatchObject({ generation: 2, links: [{ generation: 2, link: "link-2-to-1" }], rekey: { missing: [admin.id], former: [] } });
    // A copy added to generation 2 names its stored link too.
    expect((await storeKeys(admin, b.page, { generation: 2, copies: [copyFor(admin, admin.id, "2")] })).body).toMatchObject({ code: "page_key_invalid" });
    expect((await storeKeys(admin, b.page, { generation: 2, copies: [copyFor(admin, admin.id, "2", "link-2-to-1")] })).body).toMatchObject({ rekey: { missing: [], former: [] } });
    expect((await b.create(ann, 1)).body).toMatchObject({ code: "page_key_stale" });
    expect((await b.create(ann, 2)).status).toBe(200);
    // Ann's copies: both generations; Ben (former) reads the page no more.
    expect((await keysOf(ann, b.page)).body.copies.map((c) => c.generation)).toEqual([1, 2]);
    expect((await keysOf(ben, b.page)).body).toMatchObject({ code: "page_forbidden" });

    // Ann removed from the group: she is former, and gets nothing any more.
    await revokeMember(admin, group, { member_uid: ann.id });
    expect((await keysOf(admin, b.page)).body.rekey).toMatchObject({ former: [ann.id] });
    expect((await keysOf(ann, b.page)).status).toBe(403);

    // An administrator of another group cannot store a key for this page, nor for its members.
    const other = await groupTeam("Other");
    expect((await storeKeys(other.admin, b.page, { generation: 3, link: "l", copies: [copyFor(other.admin, other.admin.id, "3", "l")] })).status).toBe(403);
    const cid = await createSession({ name: "Cid" });
    expect((await storeKeys(admin, b.page, { generation: 3, link: "l", copies: [copyFor(admin, cid.id, "3", "l")] })).body).toMatchObject({ code: "page_key_invalid" });
  });

  it("racing new generations store one; a card racing a new generation is stored under the winner or refused", async () => {
    const { admin, ann, group } = await groupTeam();
    const b = await boardOf(group, admin);
    await permit(admin, b.page, { use: [user(ann)] });
    const bodies = Array.from({ length: 6 }, (_, i) => ({ generation: 1, copies: [copyFor(admin, ann.id, `race${i}`), copyFor(admin, admin.id, `race${i}`)] }));
    const hits = await burst(bodies.length, (i) => ({ method: "POST", path: `/api/pages/${b.page}/keys`, token: admin.api_token, body: bodies[i] }));
    const counts = tally(hits);
    expect(counts["200"], JSON.stringify(counts)).toBe(1);
    expect(Object.keys(counts).every((k) => k === "200" || k === "409 page_key_stale" || k === "422 page_key_invalid"), JSON.stringify(counts)).toBe(true);
    const winner = hits.findIndex((h) => h.status === 200);
    const { data: copies } = await db().entities.pagekeycopy.query.byReader({ pageId: b.page, userId: ann.id }).go();
    expect(copies.map((c) => JSON.parse(c.copy).sealed)).toEqual([`sealed-race${winner}-for-${ann.id}`]);

    // Cards of generation 1 racing generation 2: each is stored under 1 before it, or refused after it.
    const cards = await Promise.all(Array.from({ length: 4 }, async () => ({ group_id: group, page_id: b.page, ...(await b.sealed({ title: "race" }, 1)) })));
    const [cardHits, rekey] = await Promise.all([
      burst(cards.length, (i) => ({ method: "POST", path: "/api/motes", token: ann.api_token, body: cards[i] })),
      storeKeys(admin, b.page, { generation: 2, link: "l2", copies: [copyFor(admin, ann.id, "2", "l2")] }),
    ]);
    expect(rekey.status).toBe(200);
    const cardCounts = tally(cardHits);
    expect(Object.keys(cardCounts).every((k) => k === "200" || k === "409 page_key_stale"), JSON.stringify(cardCounts)).toBe(true);
    const { data: stored } = await db().entities.pagemote.query.byPage({ pageId: b.page }).go();
    expect(stored.every((m) => m.pageKey === 1)).toBe(true);
    expect(stored.length).toBe(cardCounts["200"] ?? 0);
  });
});
