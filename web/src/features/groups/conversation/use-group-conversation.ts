import type { Attribution } from "@sealwork/contracts";
import { type QueryClient, infiniteQueryOptions, queryOptions, skipToken, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { isApiError } from "../../../lib/api";
import { i18next } from "../../../lib/i18n";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import {
  type Message,
  type MessagePayload,
  type OlderHistory,
  actionErrorText,
  addPending,
  draftKeys,
  dropPending,
  isDistributionError,
  mergeMessages,
  messagePollQuery,
  myIdentity,
  newerCursor,
  newestId,
  newLocalid,
  newVisit,
  olderPages,
  oldestId,
  pendingMessage,
  reconcileAppend,
  returnToDraft,
  sentByMovedKey,
  setPendingStatus,
  usePagesAhead,
} from "../../conversations";
import { type GroupRing, forgetGroupRing, openGroupRing } from "../keys/group-ring";
import { ns as keysNs } from "../keys/i18n";
import { type GroupMessagesPage, appendGroupMessage, currentGroupRing, fetchGroupMessages, openGroupMessages, pollGroupMessages, sealGroupMessage } from "./group-messages";

/**
 * The group's own conversation on screen, as a conversation's (features/conversations,
 * use-conversation.ts) with the group's ring for keys: the history (newest page first, paging
 * back), the live messages beside it (the poll's news, pending and failed sends) and the poll
 * with the back-off of spec 000 §4; older pages fetched ahead as a conversation's are
 * (conversations/older-pages.ts). Text only: files of a group go to its drive.
 */

interface HistoryPage {
  messages: Message[];
  more: boolean;
  attrib: Attribution;
  ring: GroupRing;
}

/** What arrived after the history's first page; written only with updaters (see live-messages.ts of conversations for why). */
interface LiveState {
  messages: Message[];
  attrib: Attribution;
  ring?: GroupRing;
}

const EMPTY: LiveState = { messages: [], attrib: {} };

/** A member left and no administrator's browser has made the next epoch yet: nothing is sent meanwhile. */
export class GroupRekeyPendingError extends Error {
  constructor() {
    super(i18next.t(`${keysNs}:distribution.rekeyPending`));
    this.name = "GroupRekeyPendingError";
  }
}

/** A page of the history or the news: fetched (or the answer `loaded`, asked for already), its ring made current, its messages opened. */
async function loadPage(groupId: number, holder: UnlockedKeys, query: { before?: number; after?: number }, signal?: AbortSignal, loaded?: Promise<GroupMessagesPage>): Promise<HistoryPage> {
  const page = await (loaded ?? fetchGroupMessages(groupId, query, signal));
  const ring = await currentGroupRing(groupId, holder, page);
  return { messages: await openGroupMessages(ring, page.motes), more: page.more, attrib: page.attrib, ring };
}

/** The group conversation's history as it pages back, with older pages fetched ahead. */
const groupHistory = (groupId: number, holder: UnlockedKeys): OlderHistory<HistoryPage, GroupMessagesPage> => ({
  route: { key: `group:${groupId}`, path: `/api/groups/${groupId}/conversation`, fetchHere: (before) => fetchGroupMessages(groupId, { before }) },
  historyKey: queryKeys.groups.messages(groupId),
  olderPagesKey: queryKeys.groups.olderPages(groupId),
  olderPageKey: (before) => queryKeys.groups.olderPage(groupId, before),
  open: (before, signal, loaded) => loadPage(groupId, holder, { before }, signal, loaded),
});

const historyQuery = (groupId: number, holder: UnlockedKeys) =>
  infiniteQueryOptions({
    queryKey: queryKeys.groups.messages(groupId),
    queryFn: ({ pageParam, signal, client }) => {
      const history = groupHistory(groupId, holder);
      if (pageParam !== null) return olderPages(client, history, pageParam);
      newVisit(client, history);
      return loadPage(groupId, holder, {}, signal);
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last: HistoryPage) => (last.more ? (oldestId(last.messages) ?? undefined) : undefined),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    // A member whose copy of the key is on its way: loaded again once it is there (keys/wrap-wait.ts).
  });

const liveQuery = (groupId: number) => queryOptions({ queryKey: queryKeys.groups.live(groupId), queryFn: skipToken, initialData: EMPTY, staleTime: Infinity, gcTime: 0 });

function updateLive(client: QueryClient, groupId: number, change: (live: LiveState) => LiveState): void {
  client.setQueryData<LiveState>(queryKeys.groups.live(groupId), (live) => (live === undefined ? undefined : change(live)));
}

function shownMessages(history: { pages: HistoryPage[] } | undefined, live: LiveState): Message[] {
  return mergeMessages(live.messages, (history?.pages ?? []).flatMap((page) => page.messages));
}

function cachedMessages(client: QueryClient, groupId: number): Message[] {
  return shownMessages(client.getQueryData(queryKeys.groups.messages(groupId)), client.getQueryData<LiveState>(queryKeys.groups.live(groupId)) ?? EMPTY);
}

/** Everything newer than the newest message held (from a little below it, as conversations do), page after page. */
async function loadNewer(client: QueryClient, groupId: number, holder: UnlockedKeys): Promise<void> {
  for (let first = true; ; first = false) {
    const held = cachedMessages(client, groupId);
    const page = await loadPage(groupId, holder, { after: first ? newerCursor(held) : newestId(held) });
    updateLive(client, groupId, (live) => ({ messages: mergeMessages(live.messages, page.messages), attrib: { ...live.attrib, ...page.attrib }, ring: page.ring }));
    if (!page.more) return;
  }
}

/** Seals for the current epoch and appends; an epoch gone stale meanwhile (someone's rekey) is sealed once more for the new one. */
async function sendOne(groupId: number, holder: UnlockedKeys, message: Message & { localid: string; payload: MessagePayload }) {
  const me = await myIdentity(holder);
  for (let attempt = 0; ; attempt++) {
    const ring = await openGroupRing(groupId, holder);
    if (!ring.writable) throw new GroupRekeyPendingError();
    try {
      const answer = await appendGroupMessage(groupId, await sealGroupMessage(ring, me, message.localid, message.payload));
      return { stored: (await openGroupMessages(ring, [answer.mote]))[0]!, previousMote: answer.previous_mote, ring };
    } catch (error) {
      if (attempt >= 1 || !(isApiError(error, 409) && (error.code === "epoch_stale" || error.code === "rekey_pending"))) throw error;
      forgetGroupRing(groupId);
    }
  }
}

export function sendErrorText(error: unknown): string {
  return error instanceof GroupRekeyPendingError ? error.message : actionErrorText(error, "sendFailed");
}

export function useGroupConversation(groupId: number, holder: UnlockedKeys, onError: (text: string) => void) {
  const client = useQueryClient();
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const history = useInfiniteQuery(historyQuery(groupId, holder));
  const live = useQuery(liveQuery(groupId)).data ?? EMPTY;
  const ready = history.isSuccess;

  const poll = useQuery({
    ...messagePollQuery(queryKeys.groups.poll(groupId), (largest, signal) => pollGroupMessages(groupId, largest, signal), {
      largest: () => newestId(cachedMessages(client, groupId)),
      loadNews: () => loadNewer(client, groupId, holder),
    }),
    enabled: ready,
  });

  // The first page marked the messages seen: home's waiting count for this group goes.
  useEffect(() => {
    if (ready) void client.invalidateQueries({ queryKey: queryKeys.groups.lists() });
  }, [ready, client]);

  const sender = useMutation({
    mutationFn: (message: Message) => {
      if (message.localid === null || !message.payload) throw new Error("not a message that can be sent");
      return sendOne(groupId, holder, { ...message, localid: message.localid, payload: message.payload });
    },
    onMutate: (message) => updateLive(client, groupId, (l) => ({ ...l, messages: addPending(l.messages, message) })),
    onSuccess: async ({ stored, previousMote, ring }) => {
      if (reconcileAppend(cachedMessages(client, groupId), stored, previousMote).inOrder) {
        updateLive(client, groupId, (l) => ({ ...l, messages: mergeMessages(l.messages, [stored]), ring }));
      } else {
        await loadNewer(client, groupId, holder);
      }
    },
    onError: async (error, message) => {
      // Failed because the user's key moved on: back into the message bar, for the new key (drafts.ts).
      if (await sentByMovedKey(holder)) {
        returnToDraft(draftKeys.group(groupId), message.payload);
        updateLive(client, groupId, (l) => ({ ...l, messages: dropPending(l.messages, message.key) }));
        return;
      }
      updateLive(client, groupId, (l) => ({ ...l, messages: setPendingStatus(l.messages, message.key, "failed") }));
      onErrorRef.current(sendErrorText(error));
    },
  });
  const { mutate } = sender;

  /** Sends the text; a trimmed empty text does nothing (spec 000 §5). */
  const send = useCallback(
    (text: string): boolean => {
      const trimmed = text.trim();
      if (!trimmed) return false;
      mutate(pendingMessage({ sourceId: holder.uid, localid: newLocalid(), timestamp: Math.floor(Date.now() / 1000), payload: { text: trimmed } }));
      return true;
    },
    [holder.uid, mutate],
  );
  const retry = useCallback((message: Message) => mutate(message), [mutate]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  const loadOlder = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // (Leaving the page: the chains of older pages fetched ahead for it end with the pages on their way.)
  const startAhead = usePagesAhead(groupHistory(groupId, holder));
  const messages = useMemo(() => shownMessages(history.data, live), [history.data, live]);
  const attrib = useMemo(() => Object.assign({}, ...(history.data?.pages ?? []).map((p) => p.attrib), live.attrib) as Attribution, [history.data, live.attrib]);
  const ring = live.ring ?? history.data?.pages[0]?.ring ?? null;
  // (A fork a message's log head shows on an older page refuses the page as on the first.)
  const error = poll.error ?? (!ready || isDistributionError(history.error) ? history.error : null);
  /** Opens the messages afresh (the key one's moved key waited for is there: keys/key-refusal.tsx). */
  const reopen = useCallback(() => {
    void client.resetQueries({ queryKey: queryKeys.groups.messages(groupId) });
    void client.resetQueries({ queryKey: queryKeys.groups.poll(groupId) });
  }, [client, groupId]);

  return {
    status: error ? ("error" as const) : ready ? ("ready" as const) : ("loading" as const),
    error,
    /** Whether new messages may be sent now (no rekey pending). */
    writable: ring?.writable ?? false,
    messages,
    attrib,
    more: hasNextPage,
    loadingOlder: isFetchingNextPage,
    loadOlder,
    /** The history's first message is in, fetched ahead: the list takes it at once. */
    startAhead,
    send,
    retry,
    reopen,
  };
}
