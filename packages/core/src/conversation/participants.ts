import { participateBody, unparticipateBody } from "@sealwork/contracts";
import type * as z from "zod";
import { can, type Actor, type ParticipantActor } from "../access";
import { type TransactionEntities, type TransactionItem, writeTransaction } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { sharing } from "../group/sharing";
import { getUser } from "../user/read";
import { type Access, type Member, access, find, membersOf } from "./access";
import type { ConversationItem } from "./entities";
import { attribution, participantViews } from "./views";
import "./entities";
import "./errors";
import "../pickup/errors";

export type Participate = z.input<typeof participateBody>;

/** How often a change of the members retries after another change won the race for the list. */
const MEMBER_CHANGE_ATTEMPTS = 8;

/** A growing, jittered pause before trying again, so that racing writers spread out. */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, (10 + Math.random() * 20) * attempt));

async function participantsResult(members: Member[]) {
  return { participants: participantViews(members), attrib: await attribution(members.map((m) => m.u)) };
}

/**
 * Whether `actor` may be put in contact with each of these users (spec 000 §6: a shared group,
 * or the actor is an administrator): every path that brings people together asks this.
 */
export async function assertContact(actor: ParticipantActor, userIds: number[]): Promise<void> {
  const shared = await sharing(actor.uid, userIds);
  if (userIds.some((id) => !can(actor, "contact", { kind: "person", id, sharesGroup: shared.get(id) ?? false }))) fail("conversation_no_shared_group");
}

/**
 * Changes one participant item and the conversation's members list together: `change` gets the
 * current list and answers the new one with the participant item's own write. The list's version
 * is the transaction's condition, so a concurrent change makes this read and try again. Adding
 * someone appends instead (see `add`), so that people added at once do not wait for each other.
 */
async function changeMembers(
  a: Access,
  change: (members: Member[]) => { members: Member[]; item: (tx: TransactionEntities) => TransactionItem },
  itemFailure: Parameters<typeof fail>[0],
): Promise<Member[]> {
  let conversation: ConversationItem | undefined = a.conversation;
  for (let attempt = 1; conversation; attempt++) {
    const current = await membersOf(conversation);
    const next = change(current);
    const version = conversation.membersVersion ?? 0;
    const { canceled, reasons } = await writeTransaction((tx) => [
      next.item(tx),
      tx.conversation
        .patch({ id: conversation!.id })
        .set({ members: next.members, activity: Date.now() })
        .add({ membersVersion: 1 })
        .where((attr, op) => op.eq(attr.membersVersion, version))
        .commit(),
    ]);
    if (!canceled) return next.members;
    if (reasons[0] === "ConditionalCheckFailed") fail(itemFailure);
    if (reasons[1] !== "ConditionalCheckFailed" || attempt >= MEMBER_CHANGE_ATTEMPTS) throw new Error(`changing the members of ${a.conversation.id} was cancelled: ${reasons.join(",")}`);
    await pause(attempt);
    conversation = await find(a.conversation.id);
  }
  return fail("conversation_not_found");
}

/** Adds a participant item and appends them to the members list in one transaction. */
async function add(a: Access, userId: number, sealedKey: string): Promise<Member[]> {
  const current = await membersOf(a.conversation);
  if (current.some((m) => m.u === userId)) fail("participant_exists");
  const joinedAt = Date.now();
  const member = { u: userId, a: false };
  const { canceled, reasons } = await writeTransaction((tx) => [
    tx.participant.create({ conversationId: a.conversation.id, userId, admin: false, sealedKey, joinedAt, lastVisit: 0, lastSeenMote: 0, archived: false }).commit(),
    tx.conversation.patch({ id: a.conversation.id }).append({ members: [member] }).set({ multiple: true, activity: joinedAt }).add({ membersVersion: 1 }).commit(),
  ]);
  if (canceled && reasons[0] === "ConditionalCheckFailed") fail("participant_exists");
  if (canceled && reasons[1] === "ConditionalCheckFailed") fail("conversation_not_found");
  if (canceled) throw new Error(`adding ${userId} to ${a.conversation.id} was cancelled: ${reasons.join(",")}`);
  // Others added at the same moment are in the list too; the answer shows what this one knew.
  return [...current, member];
}

/**
 * POST /api/conversations/{id}/participate: with `admin` or `unadmin` toggles a participant's
 * admin flag; otherwise adds the user with the conversation key sealed for them. Instance
 * admins who take part, the author and conversation admins may (access/can.ts, "manage").
 */
export async function participate(actor: Actor, id: number, body: Participate) {
  const input = valid(participateBody, body);
  if (input.admin || input.unadmin) {
    const a = await access(actor, id, "read", "administrate_forbidden");
    if (!can(actor, "manage", a.resource)) fail("administrate_forbidden");
    // A pickup has its author, an admin, and its guest, who never becomes one.
    if (a.resource.pickup) fail("pickup_admin");
    if (input.participant === a.me.uid) fail("unadmin_self");
    // With a log, an admin is made and unmade by a signed `promote` or `demote` entry (POST …/log).
    if (a.conversation.logSeq !== undefined) fail("log_required");
    if (input.unadmin && input.participant === a.conversation.authorId) fail("unadmin_author");
    const admin = Boolean(input.admin);
    const members = await changeMembers(
      a,
      (current) => {
        if (!current.some((m) => m.u === input.participant)) fail("participant_missing");
        return {
          members: current.map((m) => (m.u === input.participant ? { ...m, a: admin } : m)),
          item: (tx) => tx.participant.patch({ conversationId: id, userId: input.participant }).set({ admin }).commit(),
        };
      },
      "participant_missing",
    );
    return participantsResult(members);
  }

  const a = await access(actor, id, "read", "add_forbidden");
  if (!can(actor, "manage", a.resource)) fail("add_not_author");
  // Spec 000 §6: pickups cannot take more people.
  if (a.resource.pickup) fail("pickup_participants");
  // With a log, people join through a signed `add` entry with their signed copy (POST …/log).
  if (a.conversation.logSeq !== undefined) fail("log_required");
  const sealedKey = envelopeText(input.sealed ?? "", "sealed", "sealed_key_invalid");
  if (!(await getUser(input.participant))) fail("user_not_found");
  await assertContact(a.me, [input.participant]);
  return participantsResult(await add(a, input.participant, sealedKey));
}

/** POST /api/conversations/{id}/unparticipate: removes a participant (never oneself or the author). */
export async function unparticipate(actor: Actor, id: number, body: z.input<typeof unparticipateBody>) {
  const userId = valid(unparticipateBody, body).unparticipant;
  const a = await access(actor, id, "read", "remove_forbidden");
  if (userId === a.me.uid) fail("remove_self");
  if (!can(actor, "manage", a.resource)) fail("remove_forbidden");
  if (userId === a.conversation.authorId) fail("remove_author");
  // A pickup's guest leaves with the pickup (DELETE), not on their own.
  if (a.resource.pickup) fail("remove_forbidden");
  // With a log, a removal is a signed `remove` entry followed by a rekey (POST …/log).
  if (a.conversation.logSeq !== undefined) fail("log_required");
  const members = await changeMembers(
    a,
    (current) => {
      if (!current.some((m) => m.u === userId)) fail("participant_missing");
      return {
        members: current.filter((m) => m.u !== userId),
        item: (tx) =>
          tx.participant
            .delete({ conversationId: id, userId })
            .where((attr, op) => op.exists(attr.userId))
            .commit(),
      };
    },
    "participant_missing",
  );
  return participantsResult(members);
}
