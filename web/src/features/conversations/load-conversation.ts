import type { Attribution, ConversationView, MoteView, ParticipantView, Query, Response } from "@sealwork/contracts";
import type { Key } from "@sealwork/crypto";
import { infiniteQueryOptions } from "@tanstack/react-query";
import { call, isApiError } from "../../lib/api";
import { TEST_CHECKS, checkOff } from "../../lib/build-settings";
import { queryKeys } from "../../lib/query-keys";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { type KeyHolder, decryptTitle, openConversationKey } from "./conversation-crypto";
import { currentRing, fetchLog, forgetRing, hasRing } from "./conversation-log";
import type { LogReply, Ring } from "./distribution";
import { type MessagePayload, type Verification, openMessage, openRingMessages } from "./message-crypto";
import { type ShownMessage, messageKey, oldestId } from "./message-state";
import { type OlderHistory, newVisit, olderPages } from "./older-pages";
import { keysMoved, migrate, rekeySigned } from "./signed-changes";

export type ConversationPage = Response<"GET /api/conversations/{id}">;
export type Message = ShownMessage<MessagePayload>;

/**
 * GET /api/conversations/{id}: 50 messages, oldest first; `before` pages back, `after` forward,
 * `meta: "1"` adds the conversation itself. Loading records the visit (the unread dot goes).
 */
export function loadConversation(id: number, query: Query<"GET /api/conversations/{id}"> = {}, signal?: AbortSignal): Promise<ConversationPage> {
  return call("GET /api/conversations/{id}", { params: { id }, query, signal });
}

/**
 * The keys of an open conversation and how its messages open. Protocol 1 (no membership log, and
 * every pickup): the caller's copy of the key, opened as it is. Protocol 2: the verified ring
 * (distribution.ts): log, records, one's signed copy, the chain of epochs, signed messages.
 */
export interface ConversationKeys {
  conversationId: number;
  protocol: 1 | 2;
  /** The key new content is sealed under (v2: the current epoch's). */
  key: Key;
  epoch: number;
  ring: Ring | null;
  /** Whether new content may be written now (v2: no rekey pending). */
  writable: boolean;
  /** Opens stored messages; one that does not open shows as 'Invalid mote payload', one whose signature fails as not verified. */
  open(motes: MoteView[]): Promise<Message[]>;
}

/** A stored message as the screen shows it, opened (payload null: it did not open). */
export function shownMessage(mote: MoteView, payload: MessagePayload | null, verification?: Verification): Message {
  return {
    key: messageKey(mote.source_id, mote.localid, mote.id),
    id: mote.id,
    sourceId: mote.source_id,
    localid: mote.localid,
    timestamp: mote.timestamp,
    payload,
    status: "sent",
    ...(verification ? { verification } : {}),
  };
}

/** Stored messages opened with a v1 conversation's key. */
export function openMotes(key: Key, conversationId: number, motes: MoteView[]): Promise<Message[]> {
  return Promise.all(motes.map(async (mote) => shownMessage(mote, await openMessage(key, conversationId, mote).catch(() => null))));
}

/** A verified ring as the keys of a v2 conversation. */
export function ringKeys(ring: Ring): ConversationKeys {
  return {
    conversationId: ring.conversationId,
    protocol: 2,
    key: ring.key,
    epoch: ring.epoch,
    ring,
    writable: ring.writable,
    open: async (motes) => {
      const opened = await openRingMessages(ring, motes);
      return motes.map((mote, i) => shownMessage(mote, opened[i]!.payload, opened[i]!.verification));
    },
  };
}

/** The keys for a page's answer: the v1 copy, or the ring (opened again when the answer says it is behind). */
export async function keysFor(
  id: number,
  holder: KeyHolder,
  page: Pick<ConversationPage, "protocol" | "epoch" | "needs_rekey" | "sealed" | "participants">,
  log?: Promise<LogReply>,
): Promise<ConversationKeys> {
  if (page.protocol === 2 && "keys" in holder) return ringKeys(await currentRing(id, holder, page, log));
  const key = await openConversationKey(id, page.sealed, holder, page.epoch);
  return { conversationId: id, protocol: 1, key, epoch: page.epoch, ring: null, writable: true, open: (motes) => openMotes(key, id, motes) };
}

/** The conversation itself, from the first page (`meta: "1"`). */
export interface ConversationHead {
  keys: ConversationKeys;
  meta: ConversationView;
  /** The decrypted title, or null when it has none (or it did not open). */
  title: string | null;
  /** It has a title that did not open (another conversation's, or changed on the way): said on the page, not passed over (issue 11, item 6). */
  titleFailed: boolean;
  /** A version 1 conversation this member may move to a signed log, once they confirm its people (confirmMigration). */
  migration: Migration | null;
}

/**
 * What moving a version 1 conversation to a membership log would sign: the key copy this member
 * has and the people the server lists. A v1 conversation has no signed record of its people, so
 * the member confirms them before anyone is signed in (docs/protocol.md §14.8, "Migration").
 */
export interface Migration {
  sealed: string;
  participants: ParticipantView[];
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
  /** The keys this page was opened with (a newer page's may be a later epoch's). */
  keys: ConversationKeys;
}

/** A v1 conversation this member may change the people of: their client gives it its log (signed-changes.ts, migrate). */
function migratable(page: ConversationPage, holder: KeyHolder): holder is UnlockedKeys {
  if (page.protocol !== 1 || !page.meta || !("keys" in holder) || page.meta.recipient_id === 0) return false;
  return page.meta.author_id === holder.uid || page.participants.some((p) => p.user_id === holder.uid && p.admin);
}

/**
 * The title of a v2 conversation: the current epoch's key, else an earlier one's (a rename that
 * raced a rekey). Undefined when it has one that opens under none of them (another conversation's,
 * or changed on the way): said on the page, not passed over (issue 11, item 6).
 */
export async function titleOf(keys: ConversationKeys, meta: ConversationView): Promise<string | null | undefined> {
  if (!meta.title) return null;
  for (let epoch = keys.epoch; epoch >= 0; epoch--) {
    const key = keys.ring ? await keys.ring.keyFor(epoch).catch(() => null) : epoch === keys.epoch ? keys.key : null;
    if (!key) continue;
    const title = await decryptTitle(key, meta.title).catch(() => null);
    if (title !== null) return title;
    if (!keys.ring) break;
  }
  console.warn(`The title of conversation ${meta.id} does not open`);
  return undefined;
}

/**
 * Moves a version 1 conversation to a membership log with the people its member confirmed (the
 * ones shown, not the server's list of now). Another client being faster (409) is no failure: the
 * conversation has its log either way. The caller loads the conversation again.
 */
export async function confirmMigration(id: number, holder: UnlockedKeys, migration: Migration): Promise<void> {
  try {
    await migrate(id, holder, migration.sealed, migration.participants);
  } catch (error) {
    if (!isApiError(error, 409)) throw error;
  }
  forgetRing(id);
}

/**
 * Fetches and decrypts one page: the keys (keysFor), the title with `meta`, every message. The
 * first page of a v1 conversation that this member may manage says what its migration would sign
 * (`migration`: the member confirms its people first); the first page of a v2 conversation waiting
 * for a new key after someone left gets one when this member is an admin of its log.
 */
export async function fetchMessagePage(
  id: number,
  unlocked: KeyHolder,
  query: Query<"GET /api/conversations/{id}">,
  signal?: AbortSignal,
  /** The answer to `query`, when the caller has asked for it already. */
  loaded?: Promise<ConversationPage>,
): Promise<MessagePage> {
  // A member's first page: the log is fetched beside it (used only if the page says it has one).
  const first = query.meta === "1" && "keys" in unlocked && !hasRing(id) ? fetchLog(id, signal) : undefined;
  first?.catch(() => undefined);
  let page = await (loaded ?? loadConversation(id, query, signal));
  let log = first;
  let migration: Migration | null = null;
  // (Test build only, "migration-people" off: migrated at once with the server's list, as before.)
  if (migratable(page, unlocked) && !(TEST_CHECKS && checkOff("migration-people"))) migration = { sealed: page.sealed, participants: page.participants };
  else if (migratable(page, unlocked)) {
    let changed = true;
    try {
      await migrate(id, unlocked, page.sealed, page.participants);
    } catch (error) {
      // Another client was faster (409): read it as they made it. Someone's key not trusted or
      // missing: it stays as it is until the next open.
      changed = isApiError(error, 409);
      if (!changed) console.warn(`conversation ${id} keeps protocol 1 for now`, error);
    }
    if (changed) {
      forgetRing(id);
      log = undefined;
      page = await loadConversation(id, query, signal);
    }
  }
  let keys = await keysFor(id, unlocked, page, log);
  let title = page.meta ? await titleOf(keys, page.meta) : null;
  // The next key, made by an admin of the log: after someone left, or for someone whose key moved
  // (renewed or reset) since their copy was sealed. (Not with a title that does not open: the new
  // key would carry it away.)
  const ring = keys.ring;
  if (page.meta && title !== undefined && ring?.log.admins.includes(unlocked.uid) && "keys" in unlocked && (ring.log.needsRekey || (await keysMoved(ring, unlocked)))) {
    try {
      await rekeySigned(id, unlocked, title);
      page = await loadConversation(id, query, signal);
      keys = await keysFor(id, unlocked, page);
      title = page.meta ? await titleOf(keys, page.meta) : null;
    } catch (error) {
      console.warn(`conversation ${id} still waits for its next key`, error);
    }
  }
  // (Test build only, "members-from-log" off: the server's list, as protocol v1 took it.)
  const participants = keys.ring && !(TEST_CHECKS && checkOff("members-from-log")) ? logParticipants(keys.ring) : page.participants;
  const head = page.meta ? { keys, meta: { ...page.meta, participants }, title: title ?? null, titleFailed: title === undefined, migration } : null;
  return { messages: await keys.open(page.motes), more: page.more, participants, attrib: page.attrib, head, keys };
}

/** Who takes part in a v2 conversation: its verified log's members and admins, not the server's list. */
export function logParticipants(ring: Ring): ParticipantView[] {
  return ring.log.members.map((m) => ({ user_id: m.userId, admin: ring.log.admins.includes(m.userId) }));
}

/** The id below which the next older page starts; null asks for the newest page (with the conversation). */
export type OlderCursor = number | null;

/** A conversation's history as it pages back, with older pages fetched ahead (older-pages.ts). */
export const conversationHistory = (id: number, unlocked: KeyHolder): OlderHistory<MessagePage, ConversationPage> => ({
  route: { key: `conversation:${id}`, path: `/api/conversations/${id}`, fetchHere: (before) => loadConversation(id, { before }) },
  historyKey: queryKeys.conversations.messages(id),
  olderPagesKey: queryKeys.conversations.olderPages(id),
  olderPageKey: (before) => queryKeys.conversations.olderPage(id, before),
  open: (before, signal, loaded) => fetchMessagePage(id, unlocked, { before }, signal, loaded),
});

/**
 * The conversation's history as an infinite query: the newest page first (spec 000 §9: a `before`
 * cursor with a `more` flag), each page decrypted in the query function; once the user pages back,
 * older pages are fetched ahead (PAGES_AHEAD, more the further back the user goes) and those already
 * in join the page asked for. Only these fetches write it; newer and pending messages live beside
 * it (live-messages.ts). Nothing refetches it (a new visit starts afresh: gcTime 0), and a failed
 * load is not retried, as before.
 */
export const conversationMessagesQuery = (id: number, unlocked: KeyHolder) =>
  infiniteQueryOptions({
    queryKey: queryKeys.conversations.messages(id),
    queryFn: ({ pageParam, signal, client }) => {
      const history = conversationHistory(id, unlocked);
      if (pageParam !== null) return olderPages(client, history, pageParam);
      newVisit(client, history);
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
