import { participateBody, unparticipateBody } from "@sealwork/contracts";
import type * as z from "zod";
import { can, type Actor, type ParticipantActor } from "../access";
import { isConditionFailure } from "../db/conditions";
import { db } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { Group } from "../group/group";
import { getUser } from "../user/read";
import { access, participantOf, participantsOf } from "./access";
import { attribution, participantViews } from "./views";

export type Participate = z.input<typeof participateBody>;

async function participantsResult(id: number) {
  const participants = await participantsOf(id);
  return { participants: participantViews(participants), attrib: await attribution(participants.map((p) => p.userId)) };
}

/**
 * Whether `actor` may be put in contact with each of these users (spec 000 §6: a shared group,
 * or the actor is an administrator): every path that brings people together asks this.
 */
export async function assertContact(actor: ParticipantActor, userIds: number[]): Promise<void> {
  const shared = await Group.sharing(actor.uid, userIds);
  if (userIds.some((id) => !can(actor, "contact", { kind: "person", id, sharesGroup: shared.get(id) ?? false }))) fail("conversation_no_shared_group");
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
    if (input.participant === a.me.uid) fail("unadmin_self");
    if (input.unadmin && input.participant === a.conversation.authorId) fail("unadmin_author");
    if (!(await participantOf(id, input.participant))) fail("participant_missing");
    await db().entities.participant.patch({ conversationId: id, userId: input.participant }).set({ admin: Boolean(input.admin) }).go();
    return participantsResult(id);
  }

  const a = await access(actor, id, "read", "add_forbidden");
  if (!can(actor, "manage", a.resource)) fail("add_not_author");
  // Spec 000 §6: pickups cannot take more people.
  if (a.resource.pickup) fail("pickup_participants");
  const sealedKey = envelopeText(input.sealed ?? "", "sealed", "sealed_key_invalid");
  if (!(await getUser(input.participant))) fail("user_not_found");
  await assertContact(a.me, [input.participant]);
  const ms = Date.now();
  try {
    await db()
      .entities.participant.create({ conversationId: id, userId: input.participant, admin: false, sealedKey, joinedAt: ms, lastVisit: 0, lastSeenMote: 0, archived: false })
      .go();
  } catch (error) {
    if (isConditionFailure(error)) fail("participant_exists");
    throw error;
  }
  await db().entities.conversation.patch({ id }).set({ multiple: true, activity: ms }).go();
  return participantsResult(id);
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
  try {
    await db()
      .entities.participant.delete({ conversationId: id, userId })
      .where((attr, op) => op.exists(attr.userId))
      .go();
  } catch (error) {
    if (isConditionFailure(error)) fail("participant_missing");
    throw error;
  }
  await db().entities.conversation.patch({ id }).set({ activity: Date.now() }).go();
  return participantsResult(id);
}
