import { type DriveItemView, type Response, isPlainText } from "@sealwork/contracts";
import { type DriveItemPayload, type DriveItemType, generateRecordId, isCryptoError, openDriveItem, sealDriveItem } from "@sealwork/crypto";
import { call } from "../../../lib/api";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { isDistributionError } from "../../conversations";
import { currentGroupRing } from "../conversation/group-messages";
import type { GroupRing } from "../keys/group-ring";
import type { DriveNode } from "./drive-tree";

/**
 * A group's drive in the browser (docs/protocol.md, "Drive items"): every item's name and tags
 * are opened here with the group's verified ring (each with the key of the epoch it was sealed
 * for), and every new name is sealed here for the current epoch. The server only places items.
 */

export type DriveAnswer = Response<"GET /api/drive/{id}">;

export interface OpenedDrive {
  nodes: DriveNode[];
  answer: DriveAnswer;
  ring: GroupRing;
}

/** Items opened side by side per step; the page shows how far it got after each. */
const OPEN_STEP = 250;

export function fetchDrive(groupId: number, signal?: AbortSignal): Promise<DriveAnswer> {
  return call("GET /api/drive/{id}", { params: { id: groupId }, signal });
}

/** GET the drive and open every item, telling `progress` how many are done. */
export async function loadDrive(groupId: number, holder: UnlockedKeys, progress: (done: number, total: number) => void, signal?: AbortSignal): Promise<OpenedDrive> {
  const answer = await fetchDrive(groupId, signal);
  const ring = await currentGroupRing(groupId, holder, answer);
  const nodes: DriveNode[] = [];
  progress(0, answer.items.length);
  for (let i = 0; i < answer.items.length; i += OPEN_STEP) {
    nodes.push(...(await Promise.all(answer.items.slice(i, i + OPEN_STEP).map((item) => openNode(ring, item)))));
    progress(nodes.length, answer.items.length);
  }
  return { nodes, answer, ring };
}

async function openNode(ring: GroupRing, item: DriveItemView): Promise<DriveNode> {
  const node = {
    id: item.id,
    recordId: item.record_id,
    kind: item.kind,
    parent: item.parent,
    authorId: item.source_id,
    created: item.created,
    modified: item.modified,
    editable: item.editable,
  };
  // An epoch beyond the verified one is the server's word alone.
  if (item.epoch > ring.epoch) return { ...node, name: null, tags: [] };
  try {
    const payload = await openDriveItem(await ring.keyFor(item.epoch), item, { groupId: ring.groupId, recordId: item.record_id, epoch: item.epoch }, item.kind);
    // Another member's client may have sealed text this one would never have: not shown as a name.
    if (!isPlainText(payload.name) || !payload.tags.every(isPlainText)) return { ...node, name: null, tags: [] };
    return { ...node, name: payload.name, tags: payload.tags };
  } catch (error) {
    if (isCryptoError(error) || isDistributionError(error)) return { ...node, name: null, tags: [] };
    throw error;
  }
}

function seal(ring: GroupRing, recordId: string, payload: DriveItemPayload) {
  return sealDriveItem(ring.key, { groupId: ring.groupId, recordId, epoch: ring.epoch }, payload);
}

/** POST /api/drive/{id}: a new drive (parent 0) or folder, sealed for the current epoch under a record id of this browser's making. */
export async function createItem(ring: GroupRing, kind: DriveItemType, parent: number, name: string, tags: string[]) {
  const recordId = generateRecordId();
  const sealed = await seal(ring, recordId, { type: kind, name, tags });
  return call("POST /api/drive/{id}", { params: { id: ring.groupId }, body: { record_id: recordId, kind, parent, ...sealed } });
}

/** PATCH …/update/{rid} with a new name and tags: a new payload under a new key, for the current epoch. */
export async function renameItem(ring: GroupRing, node: DriveNode, name: string, tags: string[]) {
  const sealed = await seal(ring, node.recordId, { type: node.kind, name, tags });
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
