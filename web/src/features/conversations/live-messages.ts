import type { Attribution, ParticipantView } from "@sealwork/contracts";
import { type QueryClient, queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { queryKeys } from "../../lib/query-keys";
import type { KeyHolder } from "./conversation-crypto";
import { type ConversationKeys, type Message, type MessagePage, fetchMessagePage } from "./load-conversation";
import { mergeMessages, newerCursor, newestId } from "./message-state";

/**
 * What arrived after the history's first page: newer messages (the poll's news, an out-of-order
 * append), the user's pending and failed messages, and the right panel's changes. It is written
 * only with updaters (`updateLive`), never by a fetch of its own, because the history is an
 * infinite query whose fetch writes back the pages it started from: a message added to those
 * pages while an older page loads would be lost, one added here is not.
 */
export interface LiveState {
  messages: Message[];
  /** Who takes part, once something newer than the history said so. */
  participants: ParticipantView[] | null;
  attrib: Attribution;
  /** A title set here (a rename); undefined while the history's holds. */
  title?: string | null;
  /** Keys newer than the history's (protocol v2: another epoch, other people, found by a newer page). */
  keys?: ConversationKeys;
}

const EMPTY: LiveState = { messages: [], participants: null, attrib: {} };

export const liveMessagesQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.conversations.live(id), queryFn: skipToken, initialData: EMPTY, staleTime: Infinity, gcTime: 0 });

export function useLiveMessages(id: number): LiveState {
  return useQuery(liveMessagesQuery(id)).data ?? EMPTY;
}

/** Changes the live state of an open conversation; once the screen is gone, nothing. */
export function updateLive(client: QueryClient, id: number, change: (live: LiveState) => LiveState): void {
  client.setQueryData<LiveState>(queryKeys.conversations.live(id), (live) => (live === undefined ? undefined : change(live)));
}

type History = { pages: MessagePage[] } | undefined;

/** Every message to show, oldest first: the history's and the live ones, each id once, then the pending ones. */
export function shownMessages(history: History, live: LiveState): Message[] {
  return mergeMessages(
    live.messages,
    (history?.pages ?? []).flatMap((page) => page.messages),
  );
}

/** The messages as the cache holds them right now (for the poll's cursor and the append's order check). */
export function cachedMessages(client: QueryClient, id: number): Message[] {
  return shownMessages(client.getQueryData<NonNullable<History>>(queryKeys.conversations.messages(id)), client.getQueryData<LiveState>(queryKeys.conversations.live(id)) ?? EMPTY);
}

/**
 * Loads everything newer than the newest message held: from a little below it (message-state.ts,
 * LATE_COMMIT_OVERLAP), then page after page while `more`. Answers whether a new message carries
 * files (the attachment list then needs a refresh).
 */
export async function loadNewerMessages(client: QueryClient, id: number, unlocked: KeyHolder): Promise<boolean> {
  let files = false;
  for (let first = true; ; first = false) {
    const held = cachedMessages(client, id);
    const page = await fetchMessagePage(id, unlocked, { after: first ? newerCursor(held) : newestId(held) });
    const known = new Set(held.map((m) => m.id));
    files ||= page.messages.some((m) => !known.has(m.id) && m.payload?.files?.length);
    updateLive(client, id, (live) => ({
      ...live,
      messages: mergeMessages(live.messages, page.messages),
      participants: page.participants,
      attrib: { ...live.attrib, ...page.attrib },
      keys: page.keys,
    }));
    if (!page.more) return files;
  }
}
