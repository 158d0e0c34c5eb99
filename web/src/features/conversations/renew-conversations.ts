import { call } from "../../lib/api";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { forgetRing, openRing } from "./conversation-log";
import { ringKeys, titleOf } from "./load-conversation";
import { rekeySigned } from "./signed-changes";

/** How far a renewal of the containers' keys is: `done` of `total`. */
export type RenewProgress = (done: number, total: number) => void;

/**
 * While the signed-in user renews their account key (Settings, "Renew my key": the new key is
 * registered already, the held one still in memory): in every conversation with a log that they
 * administer, the next epoch, opened and signed with the held key and with their own copy sealed
 * for the new one (docs/protocol.md §14.3, "Content sealed for the lost key"). Without it a
 * conversation whose only admin renewed would stay closed to them: nobody else may renew its key,
 * and their copy is for the key they no longer hold. The server's list only says where to look:
 * each log is verified, and a conversation where they are no admin, or whose title does not open
 * (the new key would carry it away), is left to what opening it does. One that fails is left as
 * well (another admin renews it when they open it). Answers how many were renewed.
 */
export async function renewConversationKeys(holder: UnlockedKeys, renewedTo: UnlockedKeys, progress?: RenewProgress): Promise<number> {
  const { conversations } = await call("GET /api/users/{id}/conversations", { params: { id: holder.uid } });
  const mine = conversations.filter((c) => c.protocol === 2 && c.participants.some((p) => p.user_id === holder.uid && p.admin));
  let renewed = 0;
  for (const [done, conversation] of mine.entries()) {
    progress?.(done, mine.length);
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
  progress?.(mine.length, mine.length);
  return renewed;
}
