import { type DriveItemView, type Response, isPlainText } from "@sealwork/contracts";
import {
  type DriveItemPayload,
  type FileRef,
  type IdentityKeys,
  type SignedSealedKey,
  type VerifiedKey,
  generateRecordId,
  isCryptoError,
  openDriveItem,
  openDriveItemGrant,
  sealDriveItem,
  sealDriveItemForReaders,
} from "@sealwork/crypto";
import { call } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { type FileSpace, TransferError, type TransferOptions, downloadFile, isDistributionError, myIdentity, uploadFile } from "../../conversations";
import { currentGroupRing } from "../conversation/group-messages";
import type { GroupRing } from "../keys/group-ring";
import type { DriveNode } from "./drive-tree";

/**
 * A group's drive in the browser (docs/protocol.md, "Drive items"): every item's name and tags
 * are opened here with the group's verified ring (each with the key of the epoch it was sealed
 * for), and every new name is sealed here for the current epoch. The server only places items.
 */

export type DriveAnswer = Response<"GET /api/drive/{id}">;

/** The drive as the server lists it, with the ring its items open with and one's own identity (restricted items' grants). */
export interface DriveSource {
  answer: DriveAnswer;
  ring: GroupRing;
  me: IdentityKeys;
}

/**
 * What opening needs of a ring: its group, its verified epoch and a key per epoch; for restricted
 * items its verified log, the signers' keys and one's own identity (`me`).
 */
export type OpeningRing = Pick<GroupRing, "groupId" | "epoch" | "keyFor"> & Partial<Pick<GroupRing, "log" | "keysOf">> & { me?: IdentityKeys };

/** A name and tags as opened, kept by the page per item and payload so a reload opens only what changed. */
export type Opened = Pick<DriveNode, "name" | "tags" | "file">;
export type OpenedCache = Map<string, Opened>;

/** Items opened side by side per step; the page shows what is open after each. */
const OPEN_STEP = 250;

export function fetchDrive(groupId: number, signal?: AbortSignal): Promise<DriveAnswer> {
  return call("GET /api/drive/{id}", { params: { id: groupId }, signal });
}

/** GET the drive, and the group's ring as new as the server's answer says it must be. */
export async function loadDriveSource(groupId: number, holder: UnlockedKeys, signal?: AbortSignal): Promise<DriveSource> {
  const answer = await fetchDrive(groupId, signal);
  const [ring, me] = await Promise.all([currentGroupRing(groupId, holder, answer), myIdentity(holder)]);
  return { answer, ring, me };
}

/**
 * Opens every item, the top of the tree first (the drives, then what is in them, level by level),
 * so the first rows can be shown while the rest is still being decrypted: `step` gets everything
 * open so far after each step. An item opened before with the same payload comes from `cache`.
 */
export async function openDriveNodes(ring: OpeningRing, items: DriveItemView[], cache: OpenedCache, step: (nodes: DriveNode[]) => void, cancelled: () => boolean = () => false): Promise<DriveNode[]> {
  const ordered = topFirst(items);
  const nodes: DriveNode[] = [];
  for (let i = 0; i < ordered.length && !cancelled(); i += OPEN_STEP) {
    nodes.push(...(await Promise.all(ordered.slice(i, i + OPEN_STEP).map((item) => openCached(ring, item, cache)))));
    step([...nodes]);
  }
  return nodes;
}

/** The items level by level from the drives down; any the walk does not reach (none, from this server) at the end. */
function topFirst(items: DriveItemView[]): DriveItemView[] {
  const byParent = new Map<number, DriveItemView[]>();
  for (const item of items) byParent.set(item.parent, [...(byParent.get(item.parent) ?? []), item]);
  const ordered: DriveItemView[] = [];
  const reached = new Set<number>();
  for (let level = byParent.get(0) ?? []; level.length; level = level.flatMap((item) => byParent.get(item.id) ?? [])) {
    for (const item of level) {
      if (reached.has(item.id)) continue;
      reached.add(item.id);
      ordered.push(item);
    }
  }
  return [...ordered, ...items.filter((item) => !reached.has(item.id))];
}

async function openCached(ring: OpeningRing, item: DriveItemView, cache: OpenedCache): Promise<DriveNode> {
  const key = `${item.id}:${item.epoch}:${item.dockey}:${item.payload}:${item.grant ? JSON.stringify(item.grant) : ""}`;
  const opened = cache.get(key) ?? (await openPayload(ring, item));
  cache.set(key, opened);
  return {
    id: item.id,
    recordId: item.record_id,
    kind: item.kind,
    parent: item.parent,
    authorId: item.source_id,
    created: item.created,
    modified: item.modified,
    editable: item.editable,
    hasGrants: item.has_grants,
    restricted: item.restricted,
    regrant: item.regrant,
    ...opened,
  };
}

async function openPayload(ring: OpeningRing, item: DriveItemView): Promise<Opened> {
  const invalid = { name: null, tags: [], file: null };
  // An epoch beyond the verified one is the server's word alone.
  if (item.epoch > ring.epoch) return invalid;
  try {
    const payload = item.restricted ? await openGranted(ring, item) : await openDriveItem(await ring.keyFor(item.epoch), item, { groupId: ring.groupId, recordId: item.record_id, epoch: item.epoch }, item.kind);
    if (!payload) return invalid;
    // Another member's client may have sealed text this one would never have: not shown as a name.
    if (!isPlainText(payload.name) || !payload.tags.every(isPlainText)) return invalid;
    if (payload.type !== "file") return { name: payload.name, tags: payload.tags, file: null };
    // The file the server says the item holds is the one its author sealed.
    if (payload.file.id !== item.file_id) return invalid;
    return { name: payload.name, tags: payload.tags, file: payload.file };
  } catch (error) {
    if (isCryptoError(error) || isDistributionError(error)) return invalid;
    throw error;
  }
}

/** A restricted item opens with one's own grant of its key only (null: none for this browser). */
async function openGranted(ring: OpeningRing, item: DriveItemView): Promise<DriveItemPayload | null> {
  if (!item.grant || !ring.log || !ring.keysOf || !ring.me) return null;
  return openDriveItemGrant(item.grant as unknown as SignedSealedKey, item.payload, { groupId: ring.groupId, recordId: item.record_id }, item.kind, ring.log, ring.me, ring.keysOf);
}

/**
 * A payload sealed anew for the current epoch: under the group key (a dockey) when `readers` is
 * null, else with its key granted to each reader's verified key and signed by this browser.
 */
export async function sealAnew(ring: GroupRing, me: IdentityKeys, recordId: string, payload: DriveItemPayload, readers: VerifiedKey[] | null) {
  if (readers === null) return { ...(await seal(ring, recordId, payload)) };
  const sealed = await sealDriveItemForReaders({ groupId: ring.groupId, recordId }, payload, ring.log, readers, me);
  return { payload: sealed.payload, epoch: ring.epoch, grants: sealed.grants.map((g) => ({ user_id: g.userId, grant: g.grant as unknown as Record<string, unknown> })) };
}

function seal(ring: GroupRing, recordId: string, payload: DriveItemPayload) {
  return sealDriveItem(ring.key, { groupId: ring.groupId, recordId, epoch: ring.epoch }, payload);
}

/** POST /api/drive/{id}: a new drive (parent 0) or folder, sealed for the current epoch under a record id of this browser's making. */
export async function createItem(ring: GroupRing, kind: "drive" | "folder", parent: number, name: string, tags: string[]) {
  const recordId = generateRecordId();
  const sealed = await seal(ring, recordId, { type: kind, name, tags });
  return call("POST /api/drive/{id}", { params: { id: ring.groupId }, body: { record_id: recordId, kind, parent, ...sealed } });
}

/** A group's drive files: the conversations' upload protocol on the drive's routes. */
export const driveSpace = (groupId: number): FileSpace => ({
  key: queryKeys.groups.drive(groupId),
  start: (body, signal) => call("POST /api/drive/{id}/files", { params: { id: groupId }, body, signal }),
  complete: (fid, body, signal) => call("POST /api/drive/{id}/files/{fid}/complete", { params: { id: groupId, fid }, body, signal }),
  link: (fid, thumb, signal) => call("GET /api/drive/{id}/files/{fid}", { params: { id: groupId, fid }, query: thumb ? { thumb: "1" } : {}, signal }),
});

/** The payload a node is sealed with: its type, name and tags, and a file's reference. */
export function payloadOf(node: Pick<DriveNode, "kind" | "file">, name: string, tags: string[]): DriveItemPayload {
  if (node.kind !== "file") return { type: node.kind, name, tags };
  if (!node.file) throw new TransferError("failed", "a file item without its file");
  return { type: "file", name, tags, file: node.file };
}

/**
 * Uploads a file into a drive or folder: encrypted in chunks and sent through presigned URLs
 * (uploadFile, as conversations' attachments), then the item that names it, sealed for the
 * current epoch. Its name is the file's.
 */
export async function uploadItem(ring: GroupRing, parent: number, file: File, options: TransferOptions) {
  const ref = await uploadFile(driveSpace(ring.groupId), file, options);
  const recordId = generateRecordId();
  const sealed = await seal(ring, recordId, payloadOf({ kind: "file", file: ref }, file.name, []));
  return call("POST /api/drive/{id}", { params: { id: ring.groupId }, body: { record_id: recordId, kind: "file", parent, file: ref.id, ...sealed }, signal: options.signal });
}

/** A file item's bytes, decrypted as they stream in. */
export function downloadItem(groupId: number, file: FileRef, options: TransferOptions): Promise<Blob> {
  return downloadFile(driveSpace(groupId), file, options);
}

/**
 * PATCH …/update/{rid} with a new name and tags: a new payload under a new key, for the current
 * epoch; a restricted item's new key granted to its readers again (`readers`).
 */
export async function renameItem(ring: GroupRing, me: IdentityKeys, node: DriveNode, name: string, tags: string[], readers: VerifiedKey[] | null) {
  const sealed = await sealAnew(ring, me, node.recordId, payloadOf(node, name, tags), readers);
  return call("PATCH /api/drive/{id}/update/{rid}", { params: { id: ring.groupId, rid: node.id }, body: sealed });
}

/** PATCH …/update/{rid} with a new parent. */
export function moveItem(groupId: number, id: number, parent: number) {
  return call("PATCH /api/drive/{id}/update/{rid}", { params: { id: groupId, rid: id }, body: { parent } });
}

/** DELETE …/destroy/{rid}: the item and everything in it. */
export function deleteItem(groupId: number, id: number) {
  return call("DELETE /api/drive/{id}/destroy/{rid}", { params: { id: groupId, rid: id } });
}
