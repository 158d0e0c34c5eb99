import { type Grant, driveCanIQuery, drivePermitBody, type driveGrant } from "@sealwork/contracts";
import type * as z from "zod";
import type { Actor } from "../access";
import { sealedSince } from "../db/schema";
import { type TransactionEntities, type TransactionItem, db, writeTransaction } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { GroupKeys } from "../group";
import { membersOf } from "../group/access";
import type { GroupItem } from "../group/entities";
import { getUsers } from "../user/read";
import { type GrantLists, allowed, findItem, isRestricted, moteAccess, readersOf, sameGrants, uniqueGrants } from "./access";
import type { DriveItem } from "./entities";
import "../conversation/errors";
import "./entities";
import "./errors";
import "../group/entities";
import "../group/errors";

/**
 * An item's permissions (spec 001 §3 Permission entry, §6, §7; docs/api.md, "Item permissions"):
 * its read, write and use lists (use: drives and folders), set by its author or an administrator.
 * The server holds to them (access/can.ts); a read list also takes the item's key out of the
 * group key's reach: the permitting browser seals the payload anew and grants the new key to each
 * reader (docs/protocol.md, "Restricted drive items"), and the server stores those grants, each
 * reader's own, with the lists in one transaction.
 */
export namespace DrivePermissions {
  /** GET /api/drive/items/{rid}/permissions: the lists with the names they mention, and whether the caller may change them. */
  export async function permissions(actor: Actor, id: number) {
    const { me, group, membership, it } = await moteAccess(actor, id, "read");
    return view(it, group, allowed(me, "permit", it, membership));
  }

  /** GET /api/drive/items/{rid}/canI?permission=: whether the caller may read, write (rename, move, delete) or use (put into) the item. */
  export async function canI(actor: Actor, id: number, query: z.input<typeof driveCanIQuery>) {
    const { permission } = valid(driveCanIQuery, query);
    const { me, membership, it } = await moteAccess(actor, id, "read");
    if (permission === "read") return { grant: true };
    if (permission === "use") return { grant: it.kind !== "file" && allowed(me, "use", it, membership) };
    return { grant: allowed(me, "edit", it, membership) };
  }

  /**
   * POST /api/drive/items/{rid}/permit (its author, group and instance administrators; else 403
   * permit_forbidden): the three lists. Users must be members of the group; roles the group's or
   * instance-wide (422 permit_invalid); use on a file: 422 drive_use_on_file. Whenever the item
   * has or gets a read list and a list changes, a new sealing comes with it (422
   * drive_seal_invalid otherwise): grants for readers only, signed by the caller, for a
   * restricted item; a dockey under the current epoch for one that is readable by all again.
   * One transaction writes the item and replaces its grants, conditional on the payload the
   * caller's sealing replaces: a permit or rename in between makes it 409 drive_item_changed.
   */
  export async function permit(actor: Actor, id: number, body: z.input<typeof drivePermitBody>) {
    const input = valid(drivePermitBody, body, "permit_invalid");
    const { me, group, membership, it } = await moteAccess(actor, id, "use");
    if (!allowed(me, "permit", it, membership)) fail("permit_forbidden");
    if (it.kind === "file" && input.use.length) fail("drive_use_on_file");
    const lists: GrantLists = { read: uniqueGrants(input.read), write: uniqueGrants(input.write), use: uniqueGrants(input.use) };
    await checkNamed(group, [...lists.read, ...lists.write, ...lists.use]);
    const changed = !sameGrants(it.read, lists.read) || !sameGrants(it.write, lists.write) || !sameGrants(it.use, lists.use);
    const restricted = isRestricted(lists);
    const seal = input.seal;
    if (!seal && changed && (restricted || isRestricted(it))) fail("drive_seal_invalid", { message: "A restricted item's new lists come with a new sealing of it." });
    let set: Partial<DriveItem> = { ...lists };
    let grants: z.infer<typeof driveGrant>[] = [];
    if (seal) {
      GroupKeys.requireCurrentEpoch(group, seal.epoch);
      if (restricted !== (seal.grants !== undefined)) fail("drive_seal_invalid", { message: restricted ? "A restricted item's key goes to its readers as grants." : "An item readable by the group has a dockey." });
      grants = seal.grants ?? [];
      await checkGrants(group, { ...it, ...lists }, grants, me.uid);
      set = {
        ...set,
        payload: envelopeText(seal.payload, "aead", "mote_payload_invalid"),
        ...(seal.dockey === undefined ? {} : { dockey: envelopeText(seal.dockey, "aead", "mote_payload_invalid") }),
        epoch: seal.epoch,
        grantees: grants.map((g) => g.user_id),
        modified: Math.floor(Date.now() / 1000),
      };
    }
    const { canceled, reasons } = await writeTransaction((tx) => [
      write(tx, it, set, restricted && seal !== undefined),
      ...(seal ? replaceGrants(tx, it, grants) : []),
      ...(seal?.dockey === undefined ? [] : [GroupKeys.currentEpochCheck(tx, it.groupId, seal.epoch)]),
    ]);
    if (canceled) {
      if (seal?.dockey !== undefined && reasons.at(-1) === "ConditionalCheckFailed") return GroupKeys.epochRefusal(it.groupId);
      fail((await findItem(it.groupId, it.id)) ? "drive_item_changed" : "drive_item_not_found");
    }
    return view({ ...it, ...set } as DriveItem, group, true);
  }

  /** The item's patch, on the condition that its payload is still the one read (so its grants are those the caller replaces). */
  function write(tx: TransactionEntities, it: DriveItem, set: Partial<DriveItem>, dropDockey: boolean): TransactionItem {
    const patch = tx.driveitem.patch({ groupId: it.groupId, id: it.id }).set(set);
    return (dropDockey ? patch.remove(["dockey"]) : patch).where((attr, op) => op.eq(attr.payload, it.payload)).commit();
  }

  /**
   * A grantee's account key moved at `movedAt` (renewed, or reset after they lost it; the
   * key-moved job): the grants sealed for them in the group before then are for the old key. They
   * stop counting as grantees of those items and the grants go, so the upkeep of an
   * administrator's browser (`regrant.missing`) grants each item's key again for the key they
   * hold now. A grant sealed since (a renewing browser's own regrant) stays. An item permitted
   * again meanwhile (another payload) is read again.
   */
  export async function granteeKeyMoved(groupId: number, userId: number, movedAt: number): Promise<void> {
    const { data: items } = await db().entities.driveitem.query.byGroup({ groupId }).go({ pages: "all" });
    for (let it of items.filter((item) => item.grantees.includes(userId))) {
      for (let attempt = 0; attempt < 5 && it.grantees.includes(userId); attempt++) {
        const { data: grant } = await db().entities.drivegrant.get({ groupId, userId, itemId: it.id }).go();
        if (sealedSince(grant, movedAt)) break;
        const { canceled } = await writeTransaction((tx) => [
          tx.driveitem
            .patch({ groupId, id: it.id })
            .set({ grantees: it.grantees.filter((u) => u !== userId) })
            .where((attr, op) => op.eq(attr.payload, it.payload))
            .commit(),
          tx.drivegrant
            .delete({ groupId, userId, itemId: it.id })
            .where((attr, op) => `${op.notExists(attr.at)} OR ${op.lt(attr.at, movedAt)}`)
            .commit(),
        ]);
        if (!canceled) break;
        const again = await findItem(groupId, it.id);
        if (!again) break;
        it = again;
      }
    }
  }

  /** Deletes the grants of readers who get none now and writes the new ones (whoever held one of the old key keeps what they could read). */
  export function replaceGrants(tx: TransactionEntities, it: DriveItem, grants: z.infer<typeof driveGrant>[]): TransactionItem[] {
    const next = new Set(grants.map((g) => g.user_id));
    return [
      ...it.grantees.filter((u) => !next.has(u)).map((userId) => tx.drivegrant.delete({ groupId: it.groupId, userId, itemId: it.id }).commit()),
      ...grants.map((g) => tx.drivegrant.put({ groupId: it.groupId, userId: g.user_id, itemId: it.id, grant: JSON.stringify(g.grant) }).commit()),
    ];
  }

  /**
   * A sealing's grants: each for a reader of the item as its lists will be (never anyone else),
   * once, sealed by the caller; with the old grantees, at most what one transaction holds.
   */
  export async function checkGrants(group: GroupItem, it: DriveItem, grants: z.infer<typeof driveGrant>[], sealer: number): Promise<void> {
    if (!grants.length) return;
    const readers = await readersOf(group, it);
    const ids = grants.map((g) => g.user_id);
    const bad = (message: string) => fail("drive_seal_invalid", { message });
    if (new Set(ids).size !== ids.length) bad("One grant per reader.");
    const outside = ids.filter((u) => !readers.has(u));
    if (outside.length) bad(`Not readers of this item: ${outside.map((u) => `user ${u}`).join(", ")}.`);
    if (grants.some((g) => g.grant.sealer !== sealer)) bad("Each grant is sealed and signed by the one who sends it.");
    if (new Set([...ids, ...it.grantees]).size > 95) bad("Too many readers for one item.");
  }

  /** Users must be members of the group; roles the group's or instance-wide. */
  async function checkNamed(group: GroupItem, all: Grant[]): Promise<void> {
    const members = new Set((await membersOf(group.id)).map((m) => m.userId));
    const roles = await rolesFor(group.id);
    const unknown = all.filter((g) => (g.role ? !roles.has(g.id) : !members.has(g.id)));
    if (unknown.length) fail("permit_invalid", { message: `Not members or roles of this group: ${unknown.map((g) => `${g.role ? "role" : "user"} ${g.id}`).join(", ")}.` });
  }

  /** The roles an item of the group may name, by id with their names. */
  async function rolesFor(groupId: number): Promise<Map<number, string>> {
    const query = (g: number) => db().entities.role.query.all({}).begins({ groupId: g }).go({ pages: "all" });
    const [own, instance] = await Promise.all([query(groupId), query(0)]);
    return new Map([...own.data, ...instance.data].filter((r) => r.groupId === groupId || r.groupId === 0).map((r) => [r.id, r.name]));
  }

  async function view(it: GrantLists, group: GroupItem, editable: boolean) {
    const lists = { read: it.read, write: it.write, use: it.use };
    const all = [...lists.read, ...lists.write, ...lists.use];
    const [users, roles] = await Promise.all([getUsers(all.filter((g) => !g.role).map((g) => g.id)), rolesFor(group.id)]);
    const attrib: Record<string, string> = {};
    for (const g of all) attrib[`${g.role ? "r" : "u"}${g.id}`] = (g.role ? roles.get(g.id) : users.get(g.id)?.name) ?? "";
    return { ...lists, _attrib: attrib, is_editable: editable };
  }
}
