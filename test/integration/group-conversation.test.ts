import { base64urlEncode, serializeEnvelope } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { conversationKey, encrypted } from "../support/conversations";
import { blob, getAs as get, groupTeam, postAs as post, revokeMember } from "../support/groups";

type Json = Record<string, unknown>;
interface Mote {
  id: number;
  source_id: number;
  payload: string;
  localid: string;
  epoch: number;
}

/** A signature envelope of the right shape (the server checks shapes; clients verify signatures). */
const signature = serializeEnvelope({ v: 1, kind: "record-signature", alg: "ed25519", sig: base64urlEncode(new Uint8Array(64).fill(7)) } as never);
const KEY_ID = "A".repeat(22);

describe("group conversation", () => {
  it("members write and read messages for the current epoch; others may not; a retry stores one; polls, pages and the home list's counts", async () => {
    const { admin, ann, ben, outsider, group } = await groupTeam();
    const key = await conversationKey();
    const send = async (who: typeof ann, localid: string, body: Json = {}) =>
      post<{ mote: Mote; previous_mote: number } & Json>(who, `/api/groups/${group}/conversation/append`, { localid, payload: await encrypted(key, localid), epoch: 0, signature, sender_key_id: KEY_ID, ...body });

    const first = await send(ann, "a1");
    expect(first.body).toMatchObject({ previous_mote: 0, mote: { source_id: ann.id, localid: "a1", epoch: 0 } });
    const again = await Promise.all([send(ann, "a1"), send(ann, "a1")]);
    expect(again.map((r) => r.body.mote.id)).toEqual([first.body.mote.id, first.body.mote.id]);
    const second = await send(ben, "b1");
    expect(second.body.previous_mote).toBe(first.body.mote.id);

    expect((await send(outsider, "o1")).status).toBe(403);
    expect((await get(outsider, `/api/groups/${group}/conversation`)).status).toBe(403);
    expect((await send(ann, "x1", { epoch: 1 })).body).toMatchObject({ code: "epoch_stale" });
    expect((await send(ann, "x2", { payload: "plain text" })).body).toMatchObject({ code: "mote_payload_invalid" });
    expect((await send(ann, "x3", { signature: "nope" })).body).toMatchObject({ code: "message_signature_invalid" });

    // Ann has seen nothing yet: the home list counts two waiting messages; loading marks them seen.
    const before = await get<{ outstanding: Json; last_visits: Json }>(ann, `/api/users/${ann.id}/groups`);
    expect(before.body.outstanding[String(group)]).toBe(2);
    const page = await get<{ motes: Mote[]; more: boolean; epoch: number; attrib: Record<string, { uid: number }> }>(ann, `/api/groups/${group}/conversation`);
    expect(page.body.motes.map((m) => m.localid)).toEqual(["a1", "b1"]);
    // The senders' names come with the page (a sender who leaves later keeps theirs).
    expect(Object.values(page.body.attrib).map((a) => a.uid).sort()).toEqual([ann.id, ben.id].sort());
    expect(page.body).toMatchObject({ more: false, epoch: 0 });
    const after = await get<{ outstanding: Json; last_visits: Json }>(ann, `/api/users/${ann.id}/groups`);
    expect(after.body.outstanding).toEqual({});
    expect(after.body.last_visits[String(group)]).toBeGreaterThan(0);
    expect((await get(ann, `/api/groups/${group}/conversation/poll?largest=${second.body.mote.id}`)).body).toEqual({ has_new: false });
    expect((await get(ann, `/api/groups/${group}/conversation/poll?largest=${first.body.mote.id}`)).body).toEqual({ has_new: true });
    expect((await get<{ motes: Mote[] }>(ann, `/api/groups/${group}/conversation?before=${second.body.mote.id}`)).body.motes.map((m) => m.localid)).toEqual(["a1"]);
    expect((await get<{ motes: Mote[] }>(ann, `/api/groups/${group}/conversation?after=${first.body.mote.id}`)).body.motes.map((m) => m.localid)).toEqual(["b1"]);

    // After a removal nobody writes until the next epoch; the removed member reads nothing.
    await revokeMember(admin, group, { member_uid: ben.id });
    expect((await send(ann, "r1")).body).toMatchObject({ code: "rekey_pending" });
    expect((await get(ben, `/api/groups/${group}/conversation`)).status).toBe(403);
    // A group without a log names no head seq (above); with one, the poll and the page name it, so an
    // open page verified against an older log verifies it afresh.
    expect(page.body).not.toHaveProperty("log_seq");
    const rekeyed = await post<Json>(admin, `/api/groups/${group}/log`, { head: -1, entries: [blob("remove")], rekey: { epoch: 1, link: "link" }, record: blob("record", 1) });
    expect(rekeyed.body).toMatchObject({ head: 0, epoch: 1 });
    expect((await get(ann, `/api/groups/${group}/conversation/poll?largest=${second.body.mote.id}`)).body).toEqual({ has_new: false, log_seq: 0 });
    expect((await get<Json>(ann, `/api/groups/${group}/conversation`)).body).toMatchObject({ epoch: 1, log_seq: 0 });
    expect((await send(ann, "r2", { epoch: 1 })).status).toBe(200);
    expect((await send(ann, "r3")).body).toMatchObject({ code: "epoch_stale" });

    // The log head a message names is stored and served beside it (clients check it); not a head: refused.
    const head = { seq: 2, hash: "B".repeat(43) };
    expect((await send(ann, "h1", { epoch: 1, log_head: head })).body).toMatchObject({ mote: { localid: "h1", log_head: head } });
    expect(first.body.mote).not.toHaveProperty("log_head");
    const newest = await get<{ motes: Mote[] }>(ann, `/api/groups/${group}/conversation`);
    expect(newest.body.motes.at(-1)).toMatchObject({ localid: "h1", log_head: head });
    expect((await send(ann, "h2", { epoch: 1, log_head: { seq: 2, hash: "short" } })).body).toMatchObject({ code: "validation" });
  });

  it("holds to the conversation page's permissions: read to load and poll, use to write", async () => {
    const { admin, ann, ben, group } = await groupTeam();
    const key = await conversationKey();
    const send = async (who: typeof ann, localid: string) =>
      post<Json>(who, `/api/groups/${group}/conversation/append`, { localid, payload: await encrypted(key, localid), epoch: 0, signature, sender_key_id: KEY_ID });
    const menu = await get<{ menu: { id: number; reserved: string | null }[] }>(admin, `/api/groups/${group}`);
    const page = menu.body.menu.find((p) => p.reserved === "conversation")!;
    // Ann may read it only; Ben is named nowhere, so the page is closed to him.
    expect((await post(admin, `/api/pages/${page.id}/permit`, { read: [{ role: false, id: ann.id }], use: [] })).status).toBe(200);
    expect((await get(ann, `/api/groups/${group}/conversation`)).status).toBe(200);
    expect((await get(ann, `/api/groups/${group}/conversation/poll?largest=0`)).status).toBe(200);
    expect((await send(ann, "read-only")).body).toMatchObject({ code: "page_forbidden" });
    expect((await get(ben, `/api/groups/${group}/conversation`)).body).toMatchObject({ code: "page_forbidden" });
    expect((await send(ben, "closed")).body).toMatchObject({ code: "page_forbidden" });
    // The group's administrator keeps every right; giving Ann use lets her write.
    expect((await send(admin, "by-admin")).status).toBe(200);
    await post(admin, `/api/pages/${page.id}/permit`, { read: [], use: [{ role: false, id: ann.id }] });
    expect((await send(ann, "now-allowed")).status).toBe(200);
  });
});
