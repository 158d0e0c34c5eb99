import type { Attribution, ConversationView, MoteView, ParticipantView, Query, Response } from "@sealwork/contracts";
import type { Key } from "@sealwork/crypto";
import { type QueryClient, infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { type KeyHolder, decryptTitle, openConversationKey } from "./conversation-crypto";
import { type MessagePayload, openMessage } from "./message-crypto";
import { type ShownMessage, messageKey, oldestId } from "./message-state";

export type ConversationPage = Response<"GET /api/conversations/{id}">;
export type Message = ShownMessage<MessagePayload>;

/**
 * GET /api/conversations/{id}: 50 messages, oldest first; `before` pages back, `after` forward,
 * `meta: "1"` adds the conversation itself. Loading records the visit (the unread dot goes).
 */
export function loadConversation(id: number, query: Query<"GET /api/conversations/{id}"> = {}, signal?: AbortSignal): Promise<ConversationPage> {
  return call("GET /api/conversations/{id}", { params: { id }, query, signal });
}

/** Stored messages opened with the conversation key; one that does not open shows as 'Invalid mote payload'. */
export function openMotes(key: Key, conversationId: number, motes: MoteView[]): Promise<Message[]> {
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

/** The conversation itself, from the first page (`meta: "1"`). */
export interface ConversationHead {
  key: Key;
  meta: ConversationView;
  /** The decrypted title, or null when it has none (or it did not open). */
  title: string | null;
}

/** One page, decrypted (older ones fetched ahead may be joined to it): its messages in id order, and who takes part as of this answer. */
export interface MessagePage {
  messages: Message[];
  /** More messages beyond this page: older ones (`before`, and the first page), newer ones (`after`). */
  more: boolean;
  participants: ParticipantView[];
  attrib: Attribution;
  /** The first page only. */
  head: ConversationHead | null;
}

/**
 * Fetches and decrypts one page: the conversation key (opened once per conversation and session,
 * from the `sealed` copy every answer carries), the title with `meta`, every message.
 */
export async function fetchMessagePage(id: number, unlocked: KeyHolder, query: Query<"GET /api/conversations/{id}">, signal?: AbortSignal): Promise<MessagePage> {
  const page = await loadConversation(id, query, signal);
  const key = await openConversationKey(id, page.sealed, unlocked);
  let head: ConversationHead | null = null;
  if (page.meta) {
    const title = page.meta.title ? await decryptTitle(key, page.meta.title).catch(() => null) : null;
    head = { key, meta: page.meta, title };
  }
  return { messages: await openMotes(key, id, page.motes), more: page.more, participants: page.participants, attrib: page.attrib, head };
}

/** The id below which the next older page starts; null asks for the newest page (with the conversation). */
export type OlderCursor = number | null;

/**
 * Once the user pages back, this many older pages are fetched ahead of the list, each as soon as
 * the one before it is decrypted, so scrolling on waits neither for a request that starts only
 * when the view nears the oldest message held nor for the frame that draws the last page (issue 9).
 * Two, so that one slow frame does not stall the chain; the history itself is never fetched ahead
 * of the user, only these few pages.
 */
const PAGES_AHEAD = 2;

/** One older page on its own: a page fetched ahead, or still on its way, is taken up by the history from here. */
const olderPageQuery = (id: number, unlocked: KeyHolder, before: number) =>
  queryOptions({
    queryKey: queryKeys.conversations.olderPage(id, before),
    queryFn: ({ signal }) => fetchMessagePage(id, unlocked, { before }, signal),
    staleTime: Infinity,
    // Taken out as soon as the history holds it; this bounds only pages left ahead when the screen closed.
    gcTime: 60_000,
    retry: false,
  });

/** Fetches the PAGES_AHEAD pages older than `page` into the cache, one after the other (each needs the one before). */
async function fetchAhead(client: QueryClient, id: number, unlocked: KeyHolder, page: MessagePage): Promise<void> {
  for (let ahead = 0; ahead < PAGES_AHEAD && page.more; ahead++) {
    const before = oldestId(page.messages);
    if (before === null) return;
    const options = olderPageQuery(id, unlocked, before);
    // A page that failed stays out of the chain: the history's own request asks again and reports it.
    await client.prefetchQuery(options);
    const next = client.getQueryData(options.queryKey);
    if (!next) return;
    page = next;
  }
}

/**
 * The page below `before`, fetched ahead or now, with the pages below it that are in already (the
 * list then draws them in one go rather than one frame each), and the pages ahead of those started.
 */
async function olderPages(client: QueryClient, id: number, unlocked: KeyHolder, before: number): Promise<MessagePage> {
  const options = olderPageQuery(id, unlocked, before);
  let page: MessagePage;
  try {
    page = await client.fetchQuery(options);
  } finally {
    // The history holds it from now on (or reports its failure); a later request asks the server again.
    client.removeQueries({ queryKey: options.queryKey, exact: true });
  }
  for (let below = oldestId(page.messages); page.more && below !== null; below = oldestId(page.messages)) {
    const key = queryKeys.conversations.olderPage(id, below);
    const next = client.getQueryData<MessagePage>(key);
    if (!next) break;
    client.removeQueries({ queryKey: key, exact: true });
    // The older page answered later: its view of who takes part is the newer one.
    page = { ...next, messages: [...next.messages, ...page.messages], attrib: { ...page.attrib, ...next.attrib } };
  }
  void fetchAhead(client, id, unlocked, page);
  return page;
}

/**
 * The conversation's history as an infinite query: the newest page first (spec 000 §9: a `before`
 * cursor with a `more` flag), each page decrypted in the query function; once the user pages back,
 * a few older pages are fetched ahead (PAGES_AHEAD) and those already in join the page asked for. Only these fetches write it; newer and pending messages live beside
 * it (live-messages.ts). Nothing refetches it (a new visit starts afresh: gcTime 0), and a failed
 * load is not retried, as before.
 */
export const conversationMessagesQuery = (id: number, unlocked: KeyHolder) =>
  infiniteQueryOptions({
    queryKey: queryKeys.conversations.messages(id),
    queryFn: ({ pageParam, signal, client }) => {
      if (pageParam !== null) return olderPages(client, id, unlocked, pageParam);
      // A new visit: pages an earlier one left ahead answered before this one and are not reused.
      client.removeQueries({ queryKey: queryKeys.conversations.olderPages(id) });
      return fetchMessagePage(id, unlocked, { meta: "1" }, signal);
    },
    initialPageParam: null as OlderCursor,
    getNextPageParam: (last): OlderCursor | undefined => (last.more ? (oldestId(last.messages) ?? undefined) : undefined),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    // Pages never change once fetched: comparing them all with the last answer would be work for nothing.
    structuralSharing: false,
  });
