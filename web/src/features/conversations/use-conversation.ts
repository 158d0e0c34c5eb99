import type { Attribution, ParticipantView } from "@sealwork/contracts";
import { focusManager, useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { isApiError } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import type { FileRef } from "./attachments/file-ref";
import { newLocalid, useSendMessage } from "./append-message";
import type { KeyHolder } from "./conversation-crypto";
import { actionErrorText, loadErrorText } from "./conversation-errors";
import { fetchLog } from "./conversation-log";
import { isDistributionError } from "./distribution";
import { useKeyWait } from "./key-wait";
import { cachedMessages, loadNewerMessages, shownMessages, updateLive, useLiveMessages } from "./live-messages";
import { type Message, conversationHistory, conversationMessagesQuery } from "./load-conversation";
import type { MessagePayload } from "./message-crypto";
import { newerKeys, newestId, pendingMessage } from "./message-state";
import { usePagesAhead } from "./older-pages";
import { conversationPollQuery } from "./poll-conversation";

export type { Message };

/**
 * One conversation on screen, all of it in the query cache: the history (newest page first,
 * paging back), the live messages beside it (news from the poll, pending and failed sends), and
 * the poll with the back-off of spec 000 §4. Errors of §8 go to `onError` (the error dialog).
 */
export function useConversation(id: number, unlocked: KeyHolder, onError: (text: string) => void) {
  const client = useQueryClient();
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const history = useInfiniteQuery(conversationMessagesQuery(id, unlocked));
  const live = useLiveMessages(id);
  const head = history.data?.pages[0]?.head ?? null;

  const poll = useQuery({
    ...conversationPollQuery(id, {
      largest: () => newestId(cachedMessages(client, id)),
      loadNews: async () => {
        if (await loadNewerMessages(client, id, unlocked)) void client.invalidateQueries({ queryKey: queryKeys.conversations.attachments(id) });
      },
    }),
    enabled: head !== null,
  });

  // The people may change with no message after it (an admin added or removed someone): back in
  // front, the tab asks for what came after the newest message held, and a page whose people are
  // not the verified log's opens the ring afresh (conversation-log.ts, currentRing), so the panel's
  // membership fingerprint follows the log. (A failure is the poll's to report.)
  const ready = head !== null;
  useEffect(() => {
    if (!ready) return;
    return focusManager.subscribe((focused) => {
      if (!focused) return;
      loadNewerMessages(client, id, unlocked)
        .then((files) => (files ? client.invalidateQueries({ queryKey: queryKeys.conversations.attachments(id) }) : undefined))
        .catch((error: unknown) => console.warn(`conversation ${id}: loading on focus failed`, error));
    });
  }, [ready, client, id, unlocked]);

  // A failed page (the first or an older one) and the poll's 403 or 404 open the error dialog.
  useEffect(() => {
    // A refusal of the keys shows as the warning on the page, not as a dialog.
    if (history.error && !isDistributionError(history.error)) onErrorRef.current(loadErrorText(history.error));
  }, [history.error]);
  useEffect(() => {
    if (poll.error && !isDistributionError(poll.error)) onErrorRef.current(loadErrorText(poll.error));
  }, [poll.error]);

  const keys = newerKeys(live.keys, head?.keys);
  const sender = useSendMessage(id, unlocked, keys, (error) =>
    onErrorRef.current(isApiError(error, 403) || isApiError(error, 404) ? loadErrorText(error) : actionErrorText(error, "sendFailed")),
  );
  const { mutate } = sender;

  /** Sends text and files; a trimmed empty text without files does nothing (spec 000 §5). */
  const send = useCallback(
    (text: string, files: FileRef[]): boolean => {
      const trimmed = text.trim();
      if (!trimmed && files.length === 0) return false;
      const payload: MessagePayload = { ...(trimmed ? { text: trimmed } : {}), ...(files.length ? { files } : {}) };
      mutate(pendingMessage({ sourceId: unlocked.uid, localid: newLocalid(), timestamp: Math.floor(Date.now() / 1000), payload }));
      return true;
    },
    [unlocked.uid, mutate],
  );
  /** The same message again, with its local id: the append is idempotent. */
  const retry = useCallback((message: Message) => mutate(message), [mutate]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  const loadOlder = useCallback(() => {
    // A second call while a page is on its way joins it rather than starting it over.
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // (Leaving the conversation: the chains of older pages fetched ahead for it end with the pages on their way.)
  const startAhead = usePagesAhead(conversationHistory(id, unlocked));

  const setParticipants = useCallback(
    (result: { participants: ParticipantView[]; attrib: Attribution }) =>
      updateLive(client, id, (l) => ({ ...l, participants: result.participants, attrib: { ...l.attrib, ...result.attrib } })),
    [client, id],
  );
  const setTitle = useCallback((title: string) => updateLive(client, id, (l) => ({ ...l, title })), [client, id]);

  const messages = useMemo(() => shownMessages(history.data, live), [history.data, live]);
  const pages = history.data?.pages ?? [];
  // The page that answered last knows the people best, unless something newer did.
  const participants = useSameValue(live.participants ?? pages.at(-1)?.participants ?? []);
  const attrib = useSameValue(useMemo(() => Object.assign({}, ...(history.data?.pages ?? []).map((p) => p.attrib), live.attrib) as Attribution, [history.data, live.attrib]));

  // (A refusal met on an older page, or in the poll's news, refuses the conversation as on the first.)
  const fatal = poll.error ?? (!head || isDistributionError(history.error) ? history.error : null);
  // A conversation whose keys were refused (distribution.ts): the reason, for the warning.
  const refused = isDistributionError(fatal) ? fatal : null;
  const status: "loading" | "ready" | "error" = fatal ? "error" : head ? "ready" : "loading";
  // One's key moved since the copies were sealed: the log is looked at with the poll's back-off
  // until an admin's renewal gives it a later epoch, and then the conversation opens again.
  const moved = refused?.reason === "key_moved" ? (refused.epoch ?? null) : null;
  useKeyWait(
    queryKeys.conversations.keyWait(id, moved ?? -1),
    moved !== null,
    async (signal) => (await fetchLog(id, signal)).epoch > (moved ?? Infinity),
    () => {
      void client.resetQueries({ queryKey: queryKeys.conversations.messages(id) });
      void client.resetQueries({ queryKey: queryKeys.conversations.poll(id) });
    },
  );
  return {
    status,
    error: fatal ? loadErrorText(fatal) : null,
    refused,
    keys,
    meta: head?.meta ?? null,
    title: live.title !== undefined ? live.title : (head?.title ?? null),
    /** The title did not open (and was not renamed since). */
    titleFailed: live.title === undefined && (head?.titleFailed ?? false),
    /** A version 1 conversation waiting for this member to confirm its people (migration-notice.tsx). */
    migration: head?.migration ?? null,
    participants,
    attrib,
    messages,
    more: hasNextPage,
    loadingOlder: isFetchingNextPage,
    startAhead,
    loadOlder,
    send,
    retry,
    setParticipants,
    setTitle,
  };
}

/**
 * The value of an earlier render while it holds the same: every page of older messages says again
 * who takes part, and the panel (memoised) need not draw it again for that.
 */
function useSameValue<T>(value: T): T {
  const json = JSON.stringify(value);
  return useMemo(() => value, [json]);
}
