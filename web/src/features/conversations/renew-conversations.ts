import { call } from "../../lib/api";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { extractableConversationKey, sealKeyForPublic } from "./conversation-crypto";
import { forgetRing, openRing } from "./conversation-log";
import { ringKeys, titleOf } from "./load-conversation";
import { rekeySigned } from "./signed-changes";

/** How far a renewal of the containers' keys is: `done` of `total`. */
export type RenewProgress = (done: number, total: number) => void;

/**
 * While the signed-in user renews their account key (Settings, "Renew my key": the new key is
 * registered already, the held one still in memory), in every conversation of theirs, archived ones
 * and pickups too (docs/protocol.md §14.3, "Content sealed for the lost key"):
 * - with a log they administer: the next epoch, opened and signed with the held key and with their
 *   own copy sealed for the new one. Without it a conversation whose only admin renewed would stay
 *   closed to them: nobody else may renew its key, and their copy is for the key they no longer
 *   hold. Each log is verified (the server's list only says where to look); one where they are no
 *   admin, or whose title does not open (the new key would carry it away), is left to what opening
 *   it does;
 * - from version 1 (no log, no signed copies): their own copy, opened with the held key and sealed
 *   for the new one (POST …/key), so it stays open to them as it is.
 * One that fails is left as it is (a signed one: another admin renews it when they open it).
 * Answers how many were renewed.
 */
export async function renewConversationKeys(holder: UnlockedKeys, renewedTo: UnlockedKeys, progress?: RenewProgress): Promise<number> {
  const { conversations } = await call("GET /api/users/{id}/conversations", { params: { id: holder.uid }, query: { archived: "1" } });
  const signed = conversations.filter((c) => c.protocol === 2 && c.participants.some((p) => p.user_id === holder.uid && p.admin));
  const unsigned = conversations.filter((c) => c.protocol === 1 && c.sealed !== null);
  const total = signed.length + unsigned.length;
  let renewed = 0;
  for (const [done, conversation] of signed.entries()) {
    progress?.(done, total);
    try {
      forgetRing(conversation.id);
      const ring = await openRing(conversation.id, holder);
      if (!ring.log.admins.includes(holder.uid)) continue;
      const title = await titleOf(ringKeys(ring), conversation);
      if (title === undefined) continue;
      await rekeySigned(conversation.id, holder, title, renewedTo);
      renewed++;
    } catch (error) {
      console.warn(`conversation ${conversation.id} keeps its key until another admin renews it`, error);
    } finally {
      forgetRing(conversation.id);
    }
  }
  for (const [done, conversation] of unsigned.entries()) {
    progress?.(signed.length + done, total);
    try {
      const key = await extractableConversationKey(conversation.id, conversation.sealed!, holder);
      const sealed = await sealKeyForPublic(key, renewedTo.publicKeys.encryptPublic, conversation.id);
      await call("POST /api/conversations/{id}/key", { params: { id: conversation.id }, body: { sealed } });
      renewed++;
    } catch (error) {
      console.warn(`conversation ${conversation.id} keeps the copy for the old key`, error);
    }
  }
  progress?.(total, total);
  return renewed;
}
