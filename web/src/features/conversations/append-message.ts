import { type Key, base64urlEncode } from "@sealwork/crypto";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import type { KeyHolder } from "./conversation-crypto";
import { cachedMessages, loadNewerMessages, updateLive } from "./live-messages";
import { type Message, openMotes } from "./load-conversation";
import { sealMessage } from "./message-crypto";
import { addPending, mergeMessages, reconcileAppend, setPendingStatus } from "./message-state";

/** A fresh local id for a message (spec 000 §4): 16 random bytes, base64url. */
export function newLocalid(): string {
  return base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * POST /api/conversations/{id}/append: idempotent per local id, so a retry with the same one
 * never stores the message twice. Answers the stored message and the id of the one before it.
 * `attachments` names the uploaded files the payload carries, so the server can check they exist.
 */
export function appendMessage(id: number, localid: string, payload: string, attachments: number[] = []) {
  return call("POST /api/conversations/{id}/append", { params: { id }, body: { localid, payload, ...(attachments.length ? { attachments } : {}) } });
}

/**
 * Sends a pending message (spec 000 §4, Local message), optimistically: it shows at once as
 * pending; the answer replaces it when it is in order (the message before it is the newest one
 * held), otherwise the newer messages are loaded, which bring it. A failure rolls it back to
 * failed, not away: Retry sends it again with the same local id.
 */
export function useSendMessage(id: number, unlocked: KeyHolder, key: Key | null, onFailed: (error: unknown) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (message: Message) => {
      if (!key || message.localid === null || !message.payload) throw new Error("not a message that can be sent");
      const payload = await sealMessage(key, id, unlocked.uid, message.localid, message.payload);
      const answer = await appendMessage(id, message.localid, payload, message.payload.files?.map((file) => file.id));
      const [stored] = await openMotes(key, id, [answer.mote]);
      return { stored: stored!, previousMote: answer.previous_mote };
    },
    onMutate: (message) => updateLive(client, id, (live) => ({ ...live, messages: addPending(live.messages, message) })),
    onSuccess: async ({ stored, previousMote }, message) => {
      if (message.payload?.files?.length) void client.invalidateQueries({ queryKey: queryKeys.conversations.attachments(id) });
      if (reconcileAppend(cachedMessages(client, id), stored, previousMote).inOrder) {
        updateLive(client, id, (live) => ({ ...live, messages: mergeMessages(live.messages, [stored]) }));
      } else if (await loadNewerMessages(client, id, unlocked)) {
        void client.invalidateQueries({ queryKey: queryKeys.conversations.attachments(id) });
      }
    },
    onError: (error, message) => {
      updateLive(client, id, (live) => ({ ...live, messages: setPendingStatus(live.messages, message.key, "failed") }));
      onFailed(error);
    },
  });
}
