import type { Attribution, ConversationView, MoteView, ParticipantView } from "@sealwork/contracts";
import type { Key } from "@sealwork/crypto";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { isApiError } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import type { FileRef } from "./attachments/file-ref";
import { appendMessage, newLocalid } from "./append-message";
import { type KeyHolder, decryptTitle, openConversationKey } from "./conversation-crypto";
import { actionErrorText, loadErrorText } from "./conversation-errors";
import { type ConversationPage, loadConversation } from "./load-conversation";
import { type MessagePayload, openMessage, sealMessage } from "./message-crypto";
import { type ShownMessage, addPending, mergeMessages, messageKey, newerCursor, newestId, oldestId, reconcileAppend, setPendingStatus } from "./message-state";
import { POLL_START_MS, nextPollDelay } from "./poll-backoff";
import { pollConversation } from "./poll-conversation";

export type Message = ShownMessage<MessagePayload>;

export interface ConversationState {
  status: "loading" | "ready" | "error";
  /** The error's text when status is error. */
  error: string | null;
  key: Key | null;
  meta: ConversationView | null;
  /** The decrypted title, or null when it has none (or it did not open). */
  title: string | null;
  participants: ParticipantView[];
  attrib: Attribution;
  messages: Message[];
  /** Older messages exist on the server. */
  more: boolean;
  loadingOlder: boolean;
}

const initial: ConversationState = { status: "loading", error: null, key: null, meta: null, title: null, participants: [], attrib: {}, messages: [], more: false, loadingOlder: false };

async function openMotes(key: Key, conversationId: number, motes: MoteView[]): Promise<Message[]> {
  return Promise.all(
    motes.map(async (mote): Promise<Message> => {
      let payload: MessagePayload | null;
      try {
        payload = await openMessage(key, conversationId, mote);
      } catch {
        payload = null;
      }
      return { key: messageKey(mote.source_id, mote.localid, mote.id), id: mote.id, sourceId: mote.source_id, localid: mote.localid, timestamp: mote.timestamp, payload, status: "sent" };
    }),
  );
}

/**
 * One conversation on screen: the newest page, paging back, polling for news with the back-off of
 * spec 000 §4, sending with pending messages reconciled by the append answer, and the errors of
 * §8 (`onError` shows them in the error dialog).
 */
export function useConversation(id: number, unlocked: KeyHolder, onError: (text: string) => void) {
  const [state, setState] = useState<ConversationState>(initial);
  const queryClient = useQueryClient();
  const stateRef = useRef(state);
  const update = useCallback((change: (s: ConversationState) => ConversationState) => {
    stateRef.current = change(stateRef.current);
    setState(stateRef.current);
  }, []);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const absorb = useCallback(
    async (key: Key, page: ConversationPage, older: boolean) => {
      const opened = await openMotes(key, id, page.motes);
      // A newly seen message with files belongs in the right panel's list too.
      if (!older && opened.some((m) => m.payload?.files?.length)) void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.attachments(id) });
      update((s) => ({
        ...s,
        messages: mergeMessages(s.messages, opened),
        participants: page.participants,
        attrib: { ...s.attrib, ...page.attrib },
        more: older ? page.more : s.more,
      }));
    },
    [id, update, queryClient],
  );

  /** Loads everything newer than the newest message held (`after`, while `more`). */
  const loadNewer = useCallback(async () => {
    const key = stateRef.current.key;
    if (!key) return;
    for (let first = true; ; first = false) {
      const messages = stateRef.current.messages;
      const page = await loadConversation(id, { after: first ? newerCursor(messages) : newestId(messages) });
      await absorb(key, page, false);
      if (!page.more) return;
    }
  }, [id, absorb]);

  // The first page, the key and the title.
  useEffect(() => {
    const controller = new AbortController();
    stateRef.current = initial;
    setState(initial);
    (async () => {
      try {
        const page = await loadConversation(id, { meta: "1" }, controller.signal);
        const key = await openConversationKey(id, page.sealed, unlocked);
        let title: string | null = null;
        if (page.meta?.title) title = await decryptTitle(key, page.meta.title).catch(() => null);
        if (controller.signal.aborted) return;
        update((s) => ({ ...s, status: "ready", key, meta: page.meta, title, more: page.more }));
        await absorb(key, page, true);
      } catch (error) {
        if (controller.signal.aborted) return;
        const text = loadErrorText(error);
        update((s) => ({ ...s, status: "error", error: text }));
        onErrorRef.current(text);
      }
    })();
    return () => controller.abort();
  }, [id, unlocked, absorb, update]);

  // Polling: 5000 ms, × 1.1 after a quiet poll or an error, at most 20000 ms; news resets it.
  const ready = state.status === "ready";
  useEffect(() => {
    if (!ready) return;
    const controller = new AbortController();
    let delay = POLL_START_MS;
    let timer: number | undefined;
    const tick = async () => {
      let news = false;
      try {
        news = await pollConversation(id, newestId(stateRef.current.messages), controller.signal);
        if (news) await loadNewer();
      } catch (error) {
        if (controller.signal.aborted) return;
        if (isApiError(error, 403) || isApiError(error, 404)) {
          const text = loadErrorText(error);
          update((s) => ({ ...s, status: "error", error: text }));
          onErrorRef.current(text);
          return;
        }
      }
      if (controller.signal.aborted) return;
      delay = nextPollDelay(delay, news);
      timer = window.setTimeout(() => void tick(), delay);
    };
    timer = window.setTimeout(() => void tick(), delay);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [id, ready, loadNewer, update]);

  const loadOlder = useCallback(async () => {
    const s = stateRef.current;
    const before = oldestId(s.messages);
    if (!s.key || !s.more || s.loadingOlder || before === null) return;
    update((c) => ({ ...c, loadingOlder: true }));
    try {
      const page = await loadConversation(id, { before });
      await absorb(s.key, page, true);
    } catch (error) {
      onErrorRef.current(loadErrorText(error));
    } finally {
      update((c) => ({ ...c, loadingOlder: false }));
    }
  }, [id, absorb, update]);

  const deliver = useCallback(
    async (message: Message) => {
      const key = stateRef.current.key;
      if (!key || message.localid === null || !message.payload) return;
      update((s) => ({ ...s, messages: setPendingStatus(s.messages, message.key, "pending") }));
      try {
        const payload = await sealMessage(key, id, unlocked.uid, message.localid, message.payload);
        const answer = await appendMessage(id, message.localid, payload, message.payload.files?.map((file) => file.id));
        const [stored] = await openMotes(key, id, [answer.mote]);
        const result = reconcileAppend(stateRef.current.messages, stored!, answer.previous_mote);
        if (message.payload.files?.length) void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.attachments(id) });
        if (result.inOrder) update((s) => ({ ...s, messages: result.messages }));
        else await loadNewer();
      } catch (error) {
        update((s) => ({ ...s, messages: setPendingStatus(s.messages, message.key, "failed") }));
        onErrorRef.current(isApiError(error, 403) || isApiError(error, 404) ? loadErrorText(error) : actionErrorText(error, "sendFailed"));
      }
    },
    [id, unlocked.uid, loadNewer, update, queryClient],
  );

  /** Sends text and files; a trimmed empty text without files does nothing (spec 000 §5). */
  const send = useCallback(
    (text: string, files: FileRef[]): boolean => {
      const trimmed = text.trim();
      if (!trimmed && files.length === 0) return false;
      const payload: MessagePayload = { ...(trimmed ? { text: trimmed } : {}), ...(files.length ? { files } : {}) };
      const localid = newLocalid();
      const pending = { sourceId: unlocked.uid, localid, timestamp: Math.floor(Date.now() / 1000), payload };
      update((s) => ({ ...s, messages: addPending(s.messages, pending) }));
      const added = stateRef.current.messages.at(-1)!;
      void deliver(added);
      return true;
    },
    [unlocked.uid, deliver, update],
  );

  const setParticipants = useCallback(
    (result: { participants: ParticipantView[]; attrib: Attribution }) => update((s) => ({ ...s, participants: result.participants, attrib: { ...s.attrib, ...result.attrib } })),
    [update],
  );
  const setTitle = useCallback((title: string) => update((s) => ({ ...s, title })), [update]);

  return { state, loadOlder, send, retry: deliver, setParticipants, setTitle };
}
