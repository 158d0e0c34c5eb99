import type { Attribution, ConversationView, MoteView, ParticipantView, Query, Response } from "@sealwork/contracts";
import type { Key } from "@sealwork/crypto";
import { infiniteQueryOptions } from "@tanstack/react-query";
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
  /** It has a title that did not open (another conversation's, or changed on the way): said on the page, not passed over (issue 11, item 6). */
  titleFailed: boolean;
}

/** One page, decrypted: its messages in id order, and who takes part as of this answer. */
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
    let titleFailed = false;
    const title = page.meta.title
      ? await decryptTitle(key, page.meta.title).catch((error: unknown) => {
          console.warn(`The title of conversation ${id} does not open`, error);
          titleFailed = true;
          return null;
        })
      : null;
    head = { key, meta: page.meta, title, titleFailed };
  }
  return { messages: await openMotes(key, id, page.motes), more: page.more, participants: page.participants, attrib: page.attrib, head };
}

/** The id below which the next older page starts; null asks for the newest page (with the conversation). */
export type OlderCursor = number | null;

/**
 * The conversation's history as an infinite query: the newest page first (spec 000 §9: a `before`
 * cursor with a `more` flag), each page decrypted in the query function. Only these fetches write
 * it; newer and pending messages live beside it (live-messages.ts). Nothing refetches it (a new
 * visit starts afresh: gcTime 0), and a failed load is not retried, as before.
 */
export const conversationMessagesQuery = (id: number, unlocked: KeyHolder) =>
  infiniteQueryOptions({
    queryKey: queryKeys.conversations.messages(id),
    queryFn: ({ pageParam, signal }) => fetchMessagePage(id, unlocked, pageParam === null ? { meta: "1" } : { before: pageParam }, signal),
    initialPageParam: null as OlderCursor,
    getNextPageParam: (last): OlderCursor | undefined => (last.more ? (oldestId(last.messages) ?? undefined) : undefined),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    // Pages never change once fetched: comparing them all with the last answer would be work for nothing.
    structuralSharing: false,
  });
