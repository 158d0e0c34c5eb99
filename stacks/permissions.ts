import { JOB_KINDS, type JobKind } from "../packages/core/src/config";
import { ATTACHMENTS, CARD_FILES, DRIVE_FILES, STAGED_UPLOADS } from "../packages/core/src/storage";

/**
 * What each Lambda may do: one grant per area of the route table (functions/routes.ts) and per
 * job kind's worker, holding only the table, bucket, queue and mail actions that its domain code
 * uses. The Api stack turns a grant into the function's IAM policy; the local runtime enforces the
 * same grants on every AWS SDK call a handler makes (packages/local/src/iam.ts), so a route that
 * needs an action its area was not given fails in the integration tests, as it would on AWS.
 *
 * A new area, or a domain call that needs a new action, gets its line here.
 */
export type TableAction =
  | "GetItem"
  | "BatchGetItem"
  | "Query"
  | "Scan"
  | "PutItem"
  | "UpdateItem"
  | "DeleteItem"
  | "BatchWriteItem"
  | "ConditionCheckItem"
  | "DescribeTable";

export type ObjectAction = "GetObject" | "PutObject" | "DeleteObject" | "AbortMultipartUpload" | "ListMultipartUploadParts";

export interface Grant {
  /** DynamoDB actions on the table and its indexes. */
  table?: TableAction[];
  /** S3 object actions, each on keys under the given prefixes. */
  objects?: { actions: ObjectAction[]; prefixes: string[] }[];
  /** s3:ListBucket: under these prefixes, or "bucket" for the whole bucket (HeadBucket needs it). */
  list?: string[] | "bucket";
  /** sqs:SendMessage onto these kinds' queues. */
  send?: JobKind[];
  /** sqs:GetQueueAttributes of these kinds' queues (the health check). */
  queueAttributes?: JobKind[];
  /** ses:SendEmail / ses:SendRawEmail. */
  mail?: boolean;
}

/** Reading the table: items (one or a batch) and the indexes. */
const READ: TableAction[] = ["GetItem", "BatchGetItem", "Query"];
/** Writing items one at a time, as ElectroDB does (also inside TransactWriteItems). */
const WRITE: TableAction[] = ["PutItem", "UpdateItem"];

export const AREA_GRANTS: Record<string, Grant> = {
  // Health (DescribeTable, HeadBucket, every queue's attributes), instance info and setup, the
  // user list.
  instance: { table: [...READ, ...WRITE, "DescribeTable"], list: "bucket", queueAttributes: [...JOB_KINDS], send: ["mail"] },
  // Invitations (mail; checking a signed one reads the issuer's identity chain; one issued again
  // deletes the old temporary key and transit, and a signed one uses up its reserved id).
  invites: { table: [...READ, ...WRITE, "DeleteItem"], send: ["mail"] },
  // Lookup, login (rate limits are cleared: DeleteItem), registration codes (mail), profile
  // changes (a changed contact's old item is deleted), two-factor setup.
  users: { table: ["GetItem", ...WRITE, "DeleteItem"], send: ["mail"] },
  // Account keys and their encrypted backups; a key registered with its identity record (the
  // chain is read to check it: Query); a takeover deletes the temporary key and its transit
  // envelope, as does a look at an expired one.
  keys: { table: [...READ, ...WRITE, "DeleteItem"] },
  // Identity chains, anchors, admin certificates and the encrypted pins (protocol v2).
  // A key reset replaces a pending one: its temporary key, transit and item (DeleteItem).
  identities: { table: [...READ, ...WRITE, "DeleteItem"] },
  // Conversations, messages and participants (leaving deletes one's participant item), and
  // attachments: presigned PUTs to uploads/, multipart uploads and the copies to attachments/,
  // HeadObject of both, presigned GETs of attachments/, deleting staged uploads; a drive's file
  // copied in ('Select from drive...': GetObject of drive/). A signed message
  // is stored on the condition that its epoch is the conversation's (ConditionCheckItem).
  conversations: {
    table: [...READ, ...WRITE, "DeleteItem", "ConditionCheckItem"],
    objects: [
      { actions: ["PutObject", "GetObject"], prefixes: [ATTACHMENTS, STAGED_UPLOADS] },
      { actions: ["GetObject"], prefixes: [DRIVE_FILES] },
      { actions: ["DeleteObject"], prefixes: [STAGED_UPLOADS] },
    ],
  },
  // Pickups: creating one (its conversation, the invitation mail), collecting, deleting one with
  // its conversation's items (BatchWriteItem) and, through the purge job, its files.
  pickups: { table: [...READ, ...WRITE, "DeleteItem", "BatchWriteItem"], send: ["mail", "purge-attachments"] },
  // Groups, members, pages, roles and the group keys: transactions that check a member or the
  // group (ConditionCheckItem); deleting a page, a role and who held it, a removed member's item
  // and roles (DeleteItem, BatchWriteItem); the user list and keys for the selector and targets.
  groups: { table: [...READ, ...WRITE, "DeleteItem", "BatchWriteItem", "ConditionCheckItem"] },
  // A group's drive: items created and moved in transactions that check their parent, the
  // target's ancestors and the group's epoch (ConditionCheckItem); deleted with what is in them,
  // their files' bytes too. Files: the attachments' uploads in the drive's space of the bucket.
  drive: {
    table: [...READ, ...WRITE, "DeleteItem", "ConditionCheckItem"],
    objects: [
      { actions: ["PutObject", "GetObject", "DeleteObject"], prefixes: [DRIVE_FILES, STAGED_UPLOADS] },
    ],
  },
  // Records (motes) of pages and their comments: created and changed in transactions that check
  // the group's epoch (ConditionCheckItem), read by id in batches (relationMotes, multipatch),
  // deleted with their record ids, comments and files. Files: the attachments' uploads in the
  // cards' space of the bucket.
  motes: {
    table: [...READ, ...WRITE, "DeleteItem", "ConditionCheckItem"],
    objects: [{ actions: ["PutObject", "GetObject", "DeleteObject"], prefixes: [CARD_FILES, STAGED_UPLOADS] }],
  },
};

export const WORKER_GRANTS: Record<JobKind, Grant> = {
  // One SES call per message; nothing else.
  mail: { mail: true },
  // Every object under a conversation's two prefixes.
  "purge-attachments": {
    list: [ATTACHMENTS, STAGED_UPLOADS],
    objects: [{ actions: ["DeleteObject"], prefixes: [ATTACHMENTS, STAGED_UPLOADS] }],
  },
  // Expired pickups (the expiry index) with their conversation's items (a tombstone first, so the
  // id answers "deleted"), then the purge job.
  "pickup-sweep": { table: ["GetItem", "Query", "PutItem", "DeleteItem", "BatchWriteItem"], send: ["purge-attachments"] },
  // The due notes (Query), each file's item (GetItem, a conditional DeleteItem), its bytes.
  "upload-sweep": {
    table: ["GetItem", "Query", "DeleteItem"],
    objects: [{ actions: ["DeleteObject"], prefixes: [ATTACHMENTS, DRIVE_FILES, CARD_FILES] }],
  },
};

/** An area's grant; an area without one is a mistake that must not deploy. */
export function grantOf(grants: Record<string, Grant>, area: string): Grant {
  const grant = grants[area];
  if (!grant) throw new Error(`The area "${area}" has no grant in stacks/permissions.ts: give it the table, bucket and queue actions its routes use`);
  return grant;
}
