import { id as idSchema } from "@sealwork/contracts";
import type { Actor } from "../access";
import { db } from "../db/service";
import { fail, valid } from "../errors";
import { reservedPageAccess } from "../group/access";
import { driveFiles } from "../storage";
import { findItem, readableChain } from "./access";
import "../conversation/errors";
import "./entities";

/**
 * A file a drive item holds, for someone who may read the drive page and the item (its read list
 * and those of the folders above it), to copy elsewhere ('Select from drive...' in a conversation):
 * its space, id and sizes; else 404 attachment_not_found. A module of its own, so the
 * conversations' Lambda carries this and not the whole drive.
 */
export async function driveFileToShare(actor: Actor, groupId: number, fileId: number) {
  valid(idSchema, fileId);
  const { me, membership } = await reservedPageAccess(actor, groupId, "drive", "read");
  const { data: file } = await db().entities.drivefile.get({ groupId, id: fileId }).go();
  if (!file || file.state !== "attached") fail("attachment_not_found");
  const holder = file.itemId === undefined ? undefined : await findItem(groupId, file.itemId);
  if (!holder || !(await readableChain(me, membership, holder))) fail("attachment_not_found");
  return { space: driveFiles(groupId), id: file.id, size: file.size, thumbSize: file.thumbSize };
}
