import { DRIVE_ITEMS_MAX, type DriveItemView, driveItemUpdate, id as idSchema, newDriveItem } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actor, type GroupMember, type MemberActor, can } from "../access";
import { attribution } from "../conversation/views";
import { nextId } from "../db/counter";
import { type TransactionEntities, type TransactionItem, db, writeTransaction } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { GroupKeys, reservedPageAccess } from "../group";
import { driveFiles } from "../storage";
import { Uploads } from "../uploads";
import { type ReaderContext, allowed, findItem as item, hasGrants, isRestricted, namedRoles, readableChain, readerContext, readersIn } from "./access";
import type { DriveGrant, DriveItem } from "./entities";
import { DriveFiles } from "./files";
import { DrivePermissions } from "./permissions";
import "../conversation/errors";
import "./entities";
import "./errors";

/**
 * A group's drive (spec 001 §2, §4, §6; docs/api.md, Drive): drives at the top, folders in them.
 * Members at the drive page's read level list it; its use level adds items and changes them,
 * each change held to the item's rules (access/can.ts: its author, group and instance
 * administrators; a drive is never moved or deleted). Names are sealed in the browser; what the
 * server holds to is the tree: a folder's parent is a drive or folder of the same group (checked
 * in the transaction that stores it), no item goes into itself or below itself (its target's
 * ancestors are checked unchanged in the move's transaction), and a drive holds at most
 * DRIVE_ITEMS_MAX items (a counter in the creation's transaction, so parallel creations cannot
 * pass it).
 */
export namespace Drive {
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  /** How deep the tree may go: a move checks every ancestor of its target in one transaction (at most 100 items). */
  export const DEPTH_MAX = 64;
  /** Items deleted per transaction: each with its record id, its id's group, its file, and the drive's counter (at most 100 in all). */
  const DELETE_CHUNK = 24;

  async function allItems(groupId: number): Promise<DriveItem[]> {
    const { data } = await db().entities.driveitem.query.byGroup({ groupId }).go({ pages: "all" });
    return data;
  }

  /** The caller's own grants of restricted items' keys, by item id. */
  async function grantsOf(groupId: number, userId: number): Promise<Map<number, DriveGrant>> {
    const { data } = await db().entities.drivegrant.query.byReader({ groupId, userId }).go({ pages: "all" });
    return new Map(data.map((g) => [g.itemId, g]));
  }

  async function grantOf(it: DriveItem, userId: number): Promise<DriveGrant | undefined> {
    if (!isRestricted(it)) return undefined;
    const { data } = await db().entities.drivegrant.get({ groupId: it.groupId, userId, itemId: it.id }).go();
    return data ?? undefined;
  }

  function view(it: DriveItem, me: MemberActor, member: GroupMember | null, grant?: DriveGrant, readers?: ReaderContext): DriveItemView {
    return {
      id: it.id,
      record_id: it.recordId,
      kind: it.kind,
      parent: it.parentId,
      source_id: it.sourceId,
      created: it.created,
      modified: it.modified,
      payload: it.payload,
      dockey: it.dockey ?? "",
      epoch: it.epoch,
      file_id: it.fileId ?? null,
      size: it.size,
      editable: allowed(me, "edit", it, member),
      has_grants: hasGrants(it),
      restricted: isRestricted(it),
      grant: isRestricted(it) && grant ? (JSON.parse(grant.grant) as Record<string, unknown>) : null,
      regrant: readers && isRestricted(it) && allowed(me, "permit", it, member) ? regrant(readers, it) : null,
    };
  }

  /** A restricted item's readers who hold no grant of its key (`missing`), and holders of one who are no readers now (`former`). */
  function regrant(readers: ReaderContext, it: DriveItem) {
    const now = readersIn(readers, it);
    return { missing: [...now].filter((u) => !it.grantees.includes(u)), former: it.grantees.filter((u) => !now.has(u)) };
  }

  /**
   * The items under a drive: those whose every ancestor is still there. An item created in a
   * folder while a deletion of a folder above it was under way is left without a way up; it is
   * not shown, and the next deletion in the group takes it away (`destroy`).
   */
  function reachable(items: DriveItem[]): { kept: DriveItem[]; orphans: DriveItem[] } {
    const byId = new Map(items.map((it) => [it.id, it]));
    const known = new Map<number, boolean>();
    const reaches = (it: DriveItem): boolean => {
      const chain: DriveItem[] = [];
      let at: DriveItem | undefined = it;
      let result = false;
      while (at) {
        const seen = known.get(at.id);
        if (seen !== undefined) {
          result = seen;
          break;
        }
        if (chain.includes(at) || chain.length > DEPTH_MAX) break;
        chain.push(at);
        if (at.kind === "drive") {
          result = at.parentId === 0;
          break;
        }
        at = byId.get(at.parentId);
      }
      for (const c of chain) known.set(c.id, result);
      return result;
    };
    const kept: DriveItem[] = [];
    const orphans: DriveItem[] = [];
    for (const it of items) (reaches(it) ? kept : orphans).push(it);
    return { kept, orphans };
  }

  /**
   * GET /api/drive/{id}: the items of the group's drives the caller may read (an item with a read
   * list: those it names, its author, administrators; what is in an item they may not read is out
   * of their reach too), for members who may read the drive page; with each restricted item the
   * caller's own grant of its key.
   */
  export async function load(actor: Actor, groupId: number) {
    const { me, group, membership, page } = await reservedPageAccess(actor, groupId, "drive", "read");
    const [all, grants] = await Promise.all([allItems(groupId), grantsOf(groupId, me.uid)]);
    const { kept } = reachable(all.filter((it) => allowed(me, "read", it, membership)));
    // For those who may set them, whether restricted items' grants lag behind their readers (a role's holders changed).
    const settable = kept.filter((it) => isRestricted(it) && allowed(me, "permit", it, membership));
    const readers = settable.length ? await readerContext(group, namedRoles(settable)) : undefined;
    return {
      items: kept.map((it) => view(it, me, membership, grants.get(it.id), readers)),
      attrib: await attribution(kept.map((it) => it.sourceId)),
      epoch: group.epoch,
      needs_rekey: group.needsRekey,
      can_create: can(me, "use", page),
      am_group_admin: membership?.admin ?? false,
    };
  }

  /**
   * POST /api/drive/{id}: a drive (at the top) or a folder (in a drive or folder of the group),
   * sealed for the group key's current epoch. A retry with the same record id by its creator
   * answers the item stored the first time; anyone else's use of it is 409 record_id_taken.
   */
  export async function create(actor: Actor, groupId: number, body: z.input<typeof newDriveItem>) {
    const input = valid(newDriveItem, body);
    const { me, group, membership } = await reservedPageAccess(actor, groupId, "drive", "use");
    const payload = envelopeText(input.payload, "aead", "mote_payload_invalid");
    const dockey = envelopeText(input.dockey, "aead", "mote_payload_invalid");
    const answer = (it: DriveItem) => ({ item: view(it, me, membership) });
    const earlier = await createdWith(groupId, input.record_id, me.uid);
    if (earlier) return answer(earlier);
    GroupKeys.requireCurrentEpoch(group, input.epoch);
    if ((input.kind === "drive") !== (input.parent === 0)) fail("drive_parent_invalid");
    const file = input.file === undefined ? undefined : await DriveFiles.fileOf(groupId, input.file);
    if (file && (file.sourceId !== me.uid || file.state !== "uploaded")) fail("attachment_not_found");
    if (input.parent !== 0) {
      const parent = await item(groupId, input.parent);
      if (!parent || parent.kind === "file") fail("drive_parent_invalid");
      const above = await ancestors(parent);
      if (![parent, ...above].every((a) => allowed(me, "read", a, membership))) fail("drive_parent_invalid");
      if (!allowed(me, "use", parent, membership)) fail("drive_use_forbidden");
      if (depth(above) >= DEPTH_MAX) fail("drive_parent_invalid");
    }
    const now = nowSeconds();
    const stored: DriveItem = {
      groupId,
      id: await nextId("driveitem"),
      recordId: input.record_id,
      kind: input.kind,
      parentId: input.parent,
      sourceId: me.uid,
      created: now,
      modified: now,
      payload,
      dockey,
      epoch: input.epoch,
      fileId: file?.id,
      size: file?.size ?? 0,
      read: [],
      write: [],
      use: [],
      grantees: [],
    };
    const { canceled, reasons } = await writeTransaction((tx) => [
      tx.drivestate
        .update({ groupId })
        .add({ items: 1 })
        .where((attr, op) => `${op.notExists(attr.items)} OR ${op.lt(attr.items, DRIVE_ITEMS_MAX)}`)
        .commit(),
      tx.driverecordid.create({ groupId, recordId: stored.recordId, itemId: stored.id, sourceId: me.uid }).commit(),
      tx.driveitem.create(stored).commit(),
      GroupKeys.currentEpochCheck(tx, groupId, input.epoch),
      // The parent is still there when the item is stored (a deletion may have taken it since), and is no file.
      ...(input.parent === 0 ? [] : [tx.driveitem.check({ groupId, id: input.parent }).where((attr, op) => `${op.exists(attr.kind)} AND ${op.ne(attr.kind, "file")}`).commit()]),
      // The upload becomes this item's, once.
      ...(file
        ? [
            tx.drivefile
              .patch({ groupId, id: file.id })
              .set({ state: "attached", itemId: stored.id })
              .remove(["expiresAt"])
              .where((attr, op) => op.eq(attr.state, "uploaded"))
              .commit(),
          ]
        : []),
      // Last, so the indexes of the checks above stay as they are.
      tx.drivemote.create({ id: stored.id, groupId }).commit(),
    ]);
    if (!canceled) return answer(stored);
    const failed = (i: number) => reasons[i] === "ConditionalCheckFailed";
    if (failed(0)) fail("drive_full");
    if (failed(1)) {
      const winner = await createdWith(groupId, input.record_id, me.uid);
      if (winner) return answer(winner);
      fail("record_id_taken");
    }
    if (input.parent !== 0 && failed(4)) fail("drive_parent_invalid");
    if (file && failed(input.parent === 0 ? 4 : 5)) fail("attachment_not_found");
    if (failed(3)) return GroupKeys.epochRefusal(groupId);
    return fail("internal");
  }

  /** The item stored for `recordId` if this user created it; another's record id: 409 record_id_taken. */
  async function createdWith(groupId: number, recordId: string, userId: number): Promise<DriveItem | undefined> {
    const { data } = await db().entities.driverecordid.get({ groupId, recordId }).go();
    if (!data) return undefined;
    if (data.sourceId !== userId) fail("record_id_taken");
    return (await item(groupId, data.itemId)) ?? fail("drive_item_not_found");
  }

  /** The folders and the drive above `it`, nearest first (at most DEPTH_MAX: a deeper chain is no tree). */
  async function ancestors(it: DriveItem): Promise<DriveItem[]> {
    const chain: DriveItem[] = [];
    let at = it;
    while (at.kind !== "drive") {
      if (chain.length >= DEPTH_MAX) fail("drive_parent_invalid");
      const up = await item(at.groupId, at.parentId);
      if (!up) fail("drive_item_not_found");
      chain.push(up);
      at = up;
    }
    return chain;
  }

  const depth = (chain: DriveItem[]) => chain.length + 1;

  /**
   * PATCH /api/drive/{id}/update/{rid}: a rename or tag edit (a new payload under a new key, for
   * the current epoch) by someone who may edit the item, and/or a move into another drive or
   * folder of the group by someone who may move it. A move into its own parent changes nothing;
   * into itself or anything below it: 403 drive_move_forbidden. The move writes the moved item
   * only; the target's ancestors are checked unchanged in the same transaction, so two crossing
   * moves cannot make a loop.
   */
  export async function update(actor: Actor, groupId: number, itemId: number, body: z.input<typeof driveItemUpdate>) {
    const input = valid(driveItemUpdate, body);
    valid(idSchema, itemId);
    const { me, group, membership } = await reservedPageAccess(actor, groupId, "drive", "use");
    const found = await item(groupId, itemId);
    const it = found && (await readableChain(me, membership, found, DEPTH_MAX)) ? found : fail("drive_item_not_found");
    const changes: Partial<Pick<DriveItem, "payload" | "dockey" | "epoch" | "parentId" | "grantees">> = {};
    const grants = input.grants ?? [];
    if (input.payload !== undefined) {
      if (!allowed(me, "edit", it, membership)) fail("drive_edit_forbidden");
      GroupKeys.requireCurrentEpoch(group, input.epoch!);
      // A restricted item's new key goes to its readers as grants; any other's under the group key.
      if (isRestricted(it) !== (input.grants !== undefined)) fail("drive_seal_invalid");
      await DrivePermissions.checkGrants(group, it, grants, me.uid);
      changes.payload = envelopeText(input.payload, "aead", "mote_payload_invalid");
      if (input.dockey !== undefined) changes.dockey = envelopeText(input.dockey, "aead", "mote_payload_invalid");
      else changes.grantees = grants.map((g) => g.user_id);
      changes.epoch = input.epoch!;
    }
    let checked: DriveItem[] = [];
    if (input.parent !== undefined && input.parent !== it.parentId) {
      if (!allowed(me, "move", it, membership)) fail("drive_move_forbidden");
      const target = (await item(groupId, input.parent)) ?? fail("drive_parent_invalid");
      if (target.kind === "file") fail("drive_parent_invalid");
      const above = await ancestors(target);
      checked = [target, ...above];
      if (!checked.every((a) => allowed(me, "read", a, membership))) fail("drive_parent_invalid");
      // Spec 001 §6: into an item with grants only its author, administrators and its use list.
      if (!allowed(me, "use", target, membership)) fail("drive_move_forbidden");
      if (checked.some((a) => a.id === it.id)) fail("drive_move_forbidden");
      if (depth(checked) + subtreeDepth(it, await allItemsIfFolder(it)) > DEPTH_MAX) fail("drive_parent_invalid");
      changes.parentId = target.id;
    }
    if (Object.keys(changes).length === 0) return { item: view(it, me, membership, await grantOf(it, me.uid)) };
    // One transaction holds the item, its target's ancestors and its grants (at most 100 writes and checks).
    if (grants.length + checked.length + 3 > 100) fail("drive_seal_invalid", { message: "Rename this item and move it one after the other." });
    const updated: DriveItem = { ...it, ...changes, modified: nowSeconds() };
    const { canceled, reasons } = await writeTransaction((tx) => [
      tx.driveitem
        .patch({ groupId, id: it.id })
        .set({ ...changes, modified: updated.modified })
        // The payload read is still the one replaced (a permit in between replaced its grants).
        .where((attr, op) => `${op.eq(attr.parentId, it.parentId)} AND ${op.eq(attr.payload, it.payload)}`)
        .commit(),
      ...(changes.dockey === undefined ? [] : [GroupKeys.currentEpochCheck(tx, groupId, changes.epoch!)]),
      ...checked.map((a) => unchanged(tx, a)),
      ...(changes.grantees === undefined ? [] : DrivePermissions.replaceGrants(tx, it, grants)),
    ]);
    if (!canceled) return { item: view(updated, me, membership, await grantOf(updated, me.uid)) };
    if (changes.dockey !== undefined && reasons[1] === "ConditionalCheckFailed") return GroupKeys.epochRefusal(groupId);
    // The item, its target or one of the target's ancestors moved or went meanwhile.
    return fail(reasons[0] === "ConditionalCheckFailed" ? "drive_item_not_found" : "drive_move_forbidden");
  }

  /** A transaction's check that `it` is still where it was. */
  function unchanged(tx: TransactionEntities, it: DriveItem): TransactionItem {
    return tx.driveitem
      .check({ groupId: it.groupId, id: it.id })
      .where((attr, op) => op.eq(attr.parentId, it.parentId))
      .commit();
  }

  /** A folder's move needs the depth of what is in it (one read of the drive); anything else has none below. */
  function allItemsIfFolder(it: DriveItem): Promise<DriveItem[]> {
    return it.kind === "folder" ? allItems(it.groupId) : Promise.resolve([]);
  }

  function subtreeDepth(root: DriveItem, items: DriveItem[]): number {
    const children = childrenOf(items);
    const walk = (id: number, level: number): number => Math.max(level, ...(children.get(id) ?? []).map((c) => walk(c.id, level + 1)));
    return walk(root.id, 0);
  }

  function childrenOf(items: DriveItem[]): Map<number, DriveItem[]> {
    const children = new Map<number, DriveItem[]>();
    for (const it of items) children.set(it.parentId, [...(children.get(it.parentId) ?? []), it]);
    return children;
  }

  /**
   * DELETE /api/drive/{id}/destroy/{rid}: a folder and everything in it, by someone who may delete
   * each of those items (403 drive_delete_forbidden otherwise; a drive: always). The folder goes
   * first, so nothing more can be put into it, then what was in it (and any item left without a
   * way up, see `reachable`), in transactions that give the drive's counter back as they go.
   */
  export async function destroy(actor: Actor, groupId: number, itemId: number) {
    valid(idSchema, itemId);
    const { me, membership } = await reservedPageAccess(actor, groupId, "drive", "use");
    const items = await allItems(groupId);
    const found = items.find((i) => i.id === itemId);
    const it = found && reachable(items.filter((i) => allowed(me, "read", i, membership))).kept.includes(found) ? found : fail("drive_item_not_found");
    const children = childrenOf(items);
    const below: DriveItem[] = [];
    const collect = (id: number) => {
      for (const child of children.get(id) ?? []) {
        below.push(child);
        collect(child.id);
      }
    };
    collect(it.id);
    if (![it, ...below].every((i) => allowed(me, "delete", i, membership))) fail("drive_delete_forbidden");
    const { orphans } = reachable(items);
    const rest = [...below, ...orphans.filter((o) => o.id !== it.id && !below.includes(o))];
    const first = await removeAll(groupId, [it], true);
    if (!first) fail("drive_item_not_found");
    for (let i = 0; i < rest.length; i += DELETE_CHUNK) await removeAll(groupId, rest.slice(i, i + DELETE_CHUNK), false);
    // The files' bytes last: an item never points at a file that is gone.
    const files = [it, ...rest].flatMap((i) => (i.fileId === undefined ? [] : [i.fileId]));
    if (files.length) await Uploads.remove(driveFiles(groupId), files);
    // And the grants of their keys, which no one reaches once the items are gone.
    const grants = [it, ...rest].flatMap((i) => i.grantees.map((userId) => ({ groupId, userId, itemId: i.id })));
    for (let i = 0; i < grants.length; i += 100) await writeTransaction((tx) => grants.slice(i, i + 100).map((key) => tx.drivegrant.delete(key).commit()));
    return { deleted: [it, ...below].map((i) => i.id) };
  }

  /** Deletes items with their record ids (and files' uploads) and gives the counter back; `strict`: only if the first one is still there. */
  async function removeAll(groupId: number, items: DriveItem[], strict: boolean): Promise<boolean> {
    const { canceled } = await writeTransaction((tx) => [
      ...items.flatMap((i) => [
        strict ? tx.driveitem.delete({ groupId, id: i.id }).where((attr, op) => op.exists(attr.kind)).commit() : tx.driveitem.delete({ groupId, id: i.id }).commit(),
        tx.driverecordid.delete({ groupId, recordId: i.recordId }).commit(),
        tx.drivemote.delete({ id: i.id }).commit(),
        ...(i.fileId === undefined ? [] : [tx.drivefile.delete({ groupId, id: i.fileId }).commit()]),
      ]),
      tx.drivestate.update({ groupId }).add({ items: -items.length }).commit(),
    ]);
    return !canceled;
  }
}
