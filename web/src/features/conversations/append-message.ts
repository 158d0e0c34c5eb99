import type { Body } from "@sealwork/contracts";
import { base64urlEncode } from "@sealwork/crypto";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call, isApiError } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import type { KeyHolder } from "./conversation-crypto";
import { currentRing, forgetRing } from "./conversation-log";
import { RekeyPendingError } from "./distribution";
import { cachedMessages, loadNewerMessages, updateLive } from "./live-messages";
import { type ConversationKeys, type Message, ringKeys } from "./load-conversation";
import { type MessagePayload, sealForRing, sealMessage } from "./message-crypto";
import { myIdentity } from "./signers";
import { draftKeys, returnToDraft, sentByMovedKey } from "./drafts";
import { addPending, dropPending, mergeMessages, reconcileAppend, setPendingStatus } from "./message-state";

/** A fresh local id for a message (spec 000 §4): 16 random bytes, base64url. */
export function newLocalid(): string {
  return base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * POST /api/conversations/{id}/append: idempotent per local id, so a retry with the same one
 * never stores the message twice. Answers the stored message and the id of the one before it.
 * `attachments` names the uploaded files the payload carries, so the server can check they exist.
 */
export function appendMessage(id: number, localid: string, payload: string, attachments: number[] = [], signed: Pick<Body<"POST /api/conversations/{id}/append">, "epoch" | "signature" | "sender_key_id"> = {}) {
  return call("POST /api/conversations/{id}/append", { params: { id }, body: { localid, payload, ...(attachments.length ? { attachments } : {}), ...signed } });
}

/**
 * Seals and appends one message: v1 under the conversation key; v2 under the current epoch's key
 * of the newest verified ring, signed (a stale epoch, after someone else's rekey, is sealed once
 * more for the new one). Answers the stored message, opened.
 */
async function sendOne(id: number, holder: KeyHolder, keys: ConversationKeys, message: Message & { localid: string; payload: MessagePayload }) {
  const files = message.payload.files?.map((file) => file.id) ?? [];
  if (keys.protocol === 1 || !("keys" in holder)) {
    const answer = await appendMessage(id, message.localid, await sealMessage(keys.key, id, holder.uid, message.localid, message.payload), files);
    return { stored: (await keys.open([answer.mote]))[0]!, previousMote: answer.previous_mote };
  }
  const me = await myIdentity(holder);
  for (let attempt = 0; ; attempt++) {
    const ring = await currentRing(id, holder);
    if (!ring.writable) throw new RekeyPendingError();
    const sealed = await sealForRing(ring, me, message.localid, message.payload);
    try {
      const answer = await appendMessage(id, message.localid, sealed.payload, files, sealed);
      return { stored: (await ringKeys(ring).open([answer.mote]))[0]!, previousMote: answer.previous_mote };
    } catch (error) {
      if (attempt >= 1 || !(isApiError(error, 409) && (error.code === "epoch_stale" || error.code === "rekey_pending"))) throw error;
      forgetRing(id);
    }
  }
}

/**
 * Sends a pending message (spec 000 §4, Local message), optimistically: it shows at once as
 * pending; the answer replaces it when it is in order (the message before it is the newest one
 * held), otherwise the newer messages are loaded, which bring it. A failure rolls it back to
 * failed, not away: Retry sends it again with the same local id. Refused because the user's key
 * moved on, it goes back into the message bar instead (drafts.ts), for the new key.
 */
export function useSendMessage(id: number, unlocked: KeyHolder, keys: ConversationKeys | null, onFailed: (error: unknown) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (message: Message) => {
      if (!keys || message.localid === null || !message.payload) throw new Error("not a message that can be sent");
      return sendOne(id, unlocked, keys, { ...message, localid: message.localid, payload: message.payload });
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
    onError: async (error, message) => {
      if (await sentByMovedKey(unlocked)) {
        // The key popup says why; the conversation comes back once the new key is loaded.
        returnToDraft(draftKeys.conversation(id), message.payload);
        updateLive(client, id, (live) => ({ ...live, messages: dropPending(live.messages, message.key) }));
        return;
      }
      updateLive(client, id, (live) => ({ ...live, messages: setPendingStatus(live.messages, message.key, "failed") }));
      onFailed(error);
    },
  });
}
