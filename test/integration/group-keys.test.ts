import { GROUP_RECORD_MAX_CHARS, type Session, WRAPS_MAX, WRAPS_PER_TRANSACTION } from "@sealwork/contracts";
import { db } from "@sealwork/core/db/service";
import { GroupKeys } from "@sealwork/core/group/keys";
import { describe, expect, it } from "vitest";
import { assignMember, blob, createGroup, revokeMember, getAs as get, groupTeam, postAs as post } from "../support/groups";
import { registerKey } from "../support/keys";
import { createSession } from "../support/users";

type Json = Record<string, unknown>;
interface Log {
  entries: { seq: number; entry: Json }[];
  head: number;
  epoch: number;
  needs_rekey: boolean;
  epochs: { epoch: number; record: Json | null; link: string | null }[];
}
interface Status {
  epoch: number;
  members: number;
  missing_wraps: number[];
  missing_keys: number[];
  moved_keys: number[];
  log_head: number;
  needs_rekey: boolean;
}


const team = () => groupTeam();

describe("group keys: the membership log", () => {
  it("appends entries after the caller's head, serves them as stored; two appends at one head: one is 409 log_conflict", async () => {
    const { admin, ann, outsider, group } = await team();
    const append = (who: Session, body: Json) => post<{ head: number; epoch: number } & Json>(who, `/api/groups/${group}/log`, body);
    const first = await append(admin, { head: -1, entries: [blob("create"), blob("add", 1), blob("add", 2)], record: blob("record", 0) });
    expect(first.body).toEqual({ head: 2, epoch: 0, needs_rekey: false });
    const race = await Promise.all([append(admin, { head: 2, entries: [blob("a")] }), append(admin, { head: 2, entries: [blob("b")] })]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(race.find((r) => r.status === 409)!.body).toMatchObject({ code: "log_conflict" });
    const log = await get<Log>(ann, `/api/groups/${group}/log`);
    expect(log.body.head).toBe(3);
    expect(log.body.entries.map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    expect(log.body.entries[1]!.entry).toEqual(blob("add", 1));
    expect(log.body.epochs).toEqual([{ epoch: 0, record: blob("record", 0), link: null }]);

    expect((await append(ann, { head: 3, entries: [blob("x")] })).body).toMatchObject({ code: "group_forbidden" });
    expect((await append(outsider, { head: 3, entries: [blob("x")] })).status).toBe(403);
    expect((await get(outsider, `/api/groups/${group}/log`)).status).toBe(403);
    expect((await append(admin, { head: 3, entries: ["not an object"] })).status).toBe(422);
    expect((await append(admin, { head: 3, entries: [{ big: "x".repeat(9000) }] })).status).toBe(422);
  });

  it("epochs follow each other with their link; a removal asks for the next one", async () => {
    const { admin, ben, group } = await team();
    const append = (body: Json) => post<Json>(admin, `/api/groups/${group}/log`, body);
    expect((await append({ head: -1, rekey: { epoch: 2, link: "link" } })).body).toMatchObject({ code: "group_rekey_invalid" });
    expect((await revokeMember(admin, group, { member_uid: ben.id })).body).toMatchObject({ needs_rekey: true });
    const next = await append({ head: -1, entries: [blob("remove")], rekey: { epoch: 1, link: "aead-link-1" }, record: blob("record", 1) });
    expect(next.body).toEqual({ head: 0, epoch: 1, needs_rekey: false });
    const log = await get<Log>(admin, `/api/groups/${group}/log`);
    expect(log.body.epochs).toEqual([
      { epoch: 0, record: null, link: null },
      { epoch: 1, record: blob("record", 1), link: "aead-link-1" },
    ]);
    // Only the current epoch on request; older ones one by one, as a reader needs them.
    expect((await get<Log>(admin, `/api/groups/${group}/log?epochs=current`)).body.epochs).toEqual([{ epoch: 1, record: blob("record", 1), link: "aead-link-1" }]);
    expect((await get(admin, `/api/groups/${group}/epochs/0`)).body).toEqual({ epoch: 0, record: null, link: null });
    expect((await get(admin, `/api/groups/${group}/epochs/1`)).body).toEqual({ epoch: 1, record: blob("record", 1), link: "aead-link-1" });
    expect((await get(admin, `/api/groups/${group}/epochs/2`)).status).toBe(404);
    for (const odd of ["-1", "1.5", "0x1", "01", "1e0", "%201"]) expect((await get(admin, `/api/groups/${group}/epochs/${odd}`)).status, odd).toBe(422);
    expect((await get(admin, `/api/groups/${group}/log?epochs=some`)).status).toBe(422);
    // Ben, removed, reads no epoch.
    expect((await get(ben, `/api/groups/${group}/epochs/0`)).status).toBe(403);
    const race = await Promise.all([append({ head: 0, rekey: { epoch: 2, link: "l2" } }), append({ head: 0, rekey: { epoch: 2, link: "l2b" } })]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
  });
  it("takes a group record that names a thousand members (larger than other signed records), not one beyond the limit", async () => {
    const { admin, group } = await team();
    const append = (body: Json) => post<Json>(admin, `/api/groups/${group}/log`, body);
    await append({ head: -1, entries: [blob("create")] });
    // About 70 characters a member: 1,000 members are some 70,000.
    const large = { ...blob("record"), members: Array.from({ length: 1000 }, (_, i) => ({ userId: i + 1, keyId: "k".repeat(43) })) };
    expect((await append({ head: 0, record: large })).status).toBe(200);
    expect((await get<Log>(admin, `/api/groups/${group}/log`)).body.epochs[0]!.record).toEqual(large);
    const tooLarge = { ...blob("record"), pad: "x".repeat(GROUP_RECORD_MAX_CHARS) };
    const refused = await append({ head: 0, record: tooLarge });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: "validation", fields: { record: [`A signed record has at most ${GROUP_RECORD_MAX_CHARS} characters.`] } });
  });
});

describe("group keys: wraps", () => {
  it("admins store wraps of the current epoch for members only; each member reads only their own", async () => {
    const { admin, ann, ben, outsider, group } = await team();
    const store = (who: Session, body: Json) => post<Json>(who, `/api/groups/${group}/wraps`, body);
    expect((await store(admin, { epoch: 0, wraps: [{ user_id: ann.id, wrap: blob("wrap-ann") }, { user_id: ben.id, wrap: blob("wrap-ben") }] })).body).toEqual({ stored: [ann.id, ben.id] });
    expect((await store(ann, { epoch: 0, wraps: [{ user_id: ann.id, wrap: blob("mine") }] })).body).toMatchObject({ code: "group_forbidden" });
    expect((await store(admin, { epoch: 0, wraps: [{ user_id: outsider.id, wrap: blob("ghost") }] })).body).toMatchObject({ code: "member_missing" });
    expect((await store(admin, { epoch: 1, wraps: [{ user_id: ann.id, wrap: blob("future") }] })).body).toMatchObject({ code: "epoch_stale" });
    expect((await store(admin, { epoch: 0, wraps: [{ user_id: ann.id, wrap: blob("a") }, { user_id: ann.id, wrap: blob("b") }] })).status).toBe(422);

    const mine = await get<{ epoch: number; wraps: { epoch: number; wrap: Json; sealer_id: number }[] }>(ann, `/api/groups/${group}/wraps`);
    expect(mine.body).toEqual({ epoch: 0, wraps: [{ epoch: 0, wrap: blob("wrap-ann"), sealer_id: admin.id }] });
    expect((await get(outsider, `/api/groups/${group}/wraps`)).status).toBe(403);

    // Removed: no wrap of any later epoch is stored for them, and they read none.
    await revokeMember(admin, group, { member_uid: ben.id });
    await post(admin, `/api/groups/${group}/log`, { head: -1, rekey: { epoch: 1, link: "l1" } });
    expect((await store(admin, { epoch: 1, wraps: [{ user_id: ann.id, wrap: blob("ann-1") }, { user_id: ben.id, wrap: blob("ben-1") }] })).body).toMatchObject({ code: "member_missing" });
    expect((await get<{ wraps: unknown[] }>(ann, `/api/groups/${group}/wraps`)).body.wraps).toHaveLength(1);
    expect((await get(ben, `/api/groups/${group}/wraps`)).status).toBe(403);
  });

  it("stores a large epoch's wraps in one request (several transactions side by side); a list naming a non-member stores none", async () => {
    const { admin, ann, outsider, group } = await team();
    // Members stood in for in the table (no accounts needed for wraps): more than two transactions' worth.
    const many = Array.from({ length: 2 * WRAPS_PER_TRANSACTION + 20 }, (_, i) => 9_000_000 + group * 1000 + i);
    await Promise.all(many.map((userId) => db().entities.groupmember.create({ groupId: group, userId, admin: false, joinedAt: 1, lastSeenMote: 0, lastVisit: 0 }).go()));
    const wraps = [ann.id, ...many].map((user_id) => ({ user_id, wrap: blob(`w-${user_id}`) }));
    const stored = await post<{ stored: number[] }>(admin, `/api/groups/${group}/wraps`, { epoch: 0, wraps });
    expect(stored.body.stored).toHaveLength(wraps.length);
    const kept = await db().entities.groupwrap.query.byEpoch({ groupId: group }).begins({ epoch: 0 }).go({ pages: "all" });
    expect(new Set(kept.data.map((w) => w.userId))).toEqual(new Set(wraps.map((w) => w.user_id)));
    // One outsider at the end of the list: refused before anything is written, nothing of epoch 0 is overwritten.
    const refused = await post<Json>(admin, `/api/groups/${group}/wraps`, { epoch: 0, wraps: [...wraps.slice(0, 60).map((w) => ({ ...w, wrap: blob("second") })), { user_id: outsider.id, wrap: blob("ghost") }] });
    expect(refused.body).toMatchObject({ code: "member_missing" });
    const after = await db().entities.groupwrap.query.byEpoch({ groupId: group }).begins({ epoch: 0 }).go({ pages: "all" });
    expect(after.data.filter((w) => w.wrap.includes("second"))).toEqual([]);
    expect((await post(admin, `/api/groups/${group}/wraps`, { epoch: 0, wraps: Array.from({ length: WRAPS_MAX + 1 }, (_, i) => ({ user_id: i + 1, wrap: blob("x") })) })).status).toBe(422);
  });

  it("the status names members without a wrap of the current epoch and those without a key (admins and super admins)", async () => {
    const { admin, ann, ben, group } = await team();
    await registerKey(ann);
    const status = await get<Status>(admin, `/api/groups/${group}/wraps/status`);
    expect(status.body).toMatchObject({ epoch: 0, members: 3, missing_wraps: [ann.id], log_head: -1, needs_rekey: false });
    expect(status.body.missing_keys.sort()).toEqual([admin.id, ben.id].sort());
    await post(admin, `/api/groups/${group}/wraps`, { epoch: 0, wraps: [{ user_id: ann.id, wrap: blob("w") }] });
    expect((await get<Status>(admin, `/api/groups/${group}/wraps/status`)).body.missing_wraps).toEqual([]);
    expect((await get(ann, `/api/groups/${group}/wraps/status`)).body).toMatchObject({ code: "group_forbidden" });
    // A super administrator outside the group sees the ids (the Mote Analysis).
    const otherSuper = await createSession({ admin: true, superAdmin: true });
    expect((await get(otherSuper, `/api/groups/${group}/wraps/status`)).status).toBe(200);
    expect((await get(otherSuper, `/api/groups/${group}`)).status).toBe(403);
  });

  it("a member whose account key moved is in moved_keys, in each of their groups, until a wrap for them is stored", async () => {
    const { admin, ann, ben, group } = await team();
    const other = await team();
    const second = (await createGroup([ann], { by: admin, name: "Second" })).id;
    const first = await registerKey(ann);
    await registerKey(ben);
    const status = async (id = group, as = admin) => (await get<Status>(as, `/api/groups/${id}/wraps/status`)).body;
    // An account's first key moves nothing.
    expect((await status()).moved_keys).toEqual([]);
    await post(admin, `/api/groups/${group}/wraps`, { epoch: 0, wraps: [{ user_id: ann.id, wrap: blob("w") }] });
    // Ann's new key in place of her first: her wrap is for a key she no longer holds (the key-moved job marks it).
    await registerKey(ann, first);
    await expect.poll(status, { timeout: 20_000 }).toMatchObject({ moved_keys: [ann.id], missing_wraps: [ben.id] });
    await expect.poll(async () => (await status(second)).moved_keys, { timeout: 20_000 }).toEqual([ann.id]);
    // Not in a group she is not in.
    expect((await status(other.group, other.admin)).moved_keys).toEqual([]);
    // A wrap stored for her (the next epoch's, made for her current key) clears it; Ben's stays missing.
    await post(admin, `/api/groups/${group}/wraps`, { epoch: 0, wraps: [{ user_id: ann.id, wrap: blob("w2") }] });
    expect(await status()).toMatchObject({ moved_keys: [], missing_wraps: [ben.id] });
  });

  it("a member whose wrap of the current epoch was sealed since their key moved (their own renewal) is not marked", async () => {
    const { admin, ann, group } = await team();
    const first = await registerKey(ann);
    const status = async () => (await get<Status>(admin, `/api/groups/${group}/wraps/status`)).body;
    const movedAt = Date.now();
    await registerKey(ann, first);
    await post(admin, `/api/groups/${group}/wraps`, { epoch: 0, wraps: [{ user_id: ann.id, wrap: blob("for the new key") }] });
    // The job, once more after the wrap: nothing to mark.
    await GroupKeys.keyMoved(ann.id, movedAt);
    expect((await status()).moved_keys).toEqual([]);
    // A wrap from before the move: marked.
    await db().entities.groupwrap.patch({ groupId: group, epoch: 0, userId: ann.id }).set({ at: movedAt - 1 }).go();
    await GroupKeys.keyMoved(ann.id, movedAt);
    expect((await status()).moved_keys).toEqual([ann.id]);
  });

  it("adding a member stores their log entry and wrap in the same transaction: a stale head adds nobody", async () => {
    const { admin, group } = await team();
    const late = await createSession({ name: "Lea" });
    await post(admin, `/api/groups/${group}/log`, { head: -1, entries: [blob("create")] });
    const stale = await assignMember(admin, group, { member_uid: late.id, log: { head: -1, entries: [blob("add")] }, wrap: { epoch: 0, wrap: blob("w") } });
    expect(stale.body).toMatchObject({ code: "log_conflict" });
    expect((await get(late, `/api/groups/${group}`)).status).toBe(403);
    const wrongEpoch = await assignMember(admin, group, { member_uid: late.id, log: { head: 0, entries: [blob("add")] }, wrap: { epoch: 3, wrap: blob("w") } });
    expect(wrongEpoch.body).toMatchObject({ code: "epoch_stale" });
    const added = await assignMember(admin, group, { member_uid: late.id, log: { head: 0, entries: [blob("add")] }, wrap: { epoch: 0, wrap: blob("w"), record: blob("record naming Lea") } });
    expect(added.body).toMatchObject({ added: true, wrapped: true, log_head: 1, member: { id: late.id, group_admin: false } });
    expect((await get<{ wraps: unknown[] }>(late, `/api/groups/${group}/wraps`)).body.wraps).toEqual([{ epoch: 0, wrap: blob("w"), sealer_id: admin.id }]);
    // The epoch's record that names her came in the same call: nobody sees her wrap beside a record without her.
    const log = await get<{ epochs: Array<{ epoch: number; record: unknown }> }>(late, `/api/groups/${group}/log`);
    expect(log.body.epochs.find((e) => e.epoch === 0)?.record).toEqual(blob("record naming Lea"));
    const removed = await revokeMember(admin, group, { member_uid: late.id, log: { head: 0, entries: [blob("remove")] } });
    expect(removed.body).toMatchObject({ code: "log_conflict" });
    expect((await get(late, `/api/groups/${group}`)).status).toBe(200);
    expect((await revokeMember(admin, group, { member_uid: late.id, log: { head: 1, entries: [blob("remove")] } })).body).toMatchObject({ log_head: 2, needs_rekey: true });
    // What an administrator's keeper polls: the next epoch is due.
    expect((await get<Status>(admin, `/api/groups/${group}/wraps/status`)).body).toMatchObject({ log_head: 2, needs_rekey: true });
  });
});
