import { COMMENT_RESEAL_MAX, type Response } from "@sealwork/contracts";
import {
  type Key,
  type MotePayload,
  type OpenedPageKey,
  type PageKeyCopy,
  generatePageKey,
  isCryptoError,
  openComment,
  openCommentForPage,
  openMote,
  openMoteForPage,
  openPageKey,
  openPageKeyLink,
  pageKeyLinkDigest,
  sealComment,
  sealCommentForPage,
  sealMote,
  sealMoteForPage,
  sealPageKey,
  sealPageKeyLink,
} from "@sealwork/crypto";
import { call, isApiError } from "../../../lib/api";
import { TEST_CHECKS, checkOff } from "../../../lib/build-settings";
import { i18next } from "../../../lib/i18n";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { myIdentity, myKey } from "../../conversations";
import { type GroupRing, forgetGroupRing, memberKeys, openGroupRing } from "../keys/group-ring";

/**
 * A restricted page's keys in the browser (docs/protocol.md, "Restricted pages"): a page whose read
 * permission is narrower than the group seals its cards and comments under a page key of its own,
 * sealed for each reader and signed by an administrator. This module opens one's copies (older
 * generations through the chain), tells the sealing which key a page's records go under, and
 * is the administrator's keeper: it makes a generation when the page becomes restricted or loses
 * a reader, seals copies for readers who have none, and seals the page's cards anew under the key
 * they must be under (through the multipatch, with progress).
 */

export type PageKeysAnswer = Response<"GET /api/pages/{id}/keys">;

/** A page's keys as this member holds them. */
export interface PageKeyRing {
  pageId: number;
  /** Whether the page's records go under its key (else under the group key). */
  restricted: boolean;
  /** The current generation (0: none yet). */
  generation: number;
  /** The key of a generation: one's own copy, or a later one's through the chain (a CryptoError if neither opens). */
  keyFor(generation: number): Promise<Key>;
  /** The same with the digest of the link the generation carries, as its signed copy (or the verified link after it) names it. */
  openedFor(generation: number): Promise<OpenedPageKey>;
  answer: PageKeysAnswer;
}

/** A restricted page whose key this member does not hold (yet): nothing can be sealed for it here. */
export class PageKeyWaitingError extends Error {
  constructor() {
    super(i18next.t("errors:page_key_required"));
    this.name = "PageKeyWaitingError";
  }
}

/** Opens the page's keys from the server's answer with one's own copies, checked against the group's verified log. */
export async function pageKeyRing(ring: GroupRing, holder: UnlockedKeys, pageId: number, answer: PageKeysAnswer): Promise<PageKeyRing> {
  const me = await myIdentity(holder);
  const place = (generation: number) => ({ groupId: ring.groupId, pageId, generation });
  const copies = new Map(answer.copies.map((c) => [c.generation, c.copy as unknown as PageKeyCopy]));
  const links = new Map(answer.links.map((l) => [l.generation, l.link]));
  const keys = new Map<number, Promise<OpenedPageKey>>();
  // A link is opened only if its digest is the one the signed copy (or the verified link after it) names: else bad_chain.
  const vouched = async (opened: OpenedPageKey, link: string): Promise<OpenedPageKey> =>
    TEST_CHECKS && checkOff("page-key-link") ? { ...opened, linkDigest: await pageKeyLinkDigest(link) } : opened;
  const openedFor = (generation: number): Promise<OpenedPageKey> => {
    let found = keys.get(generation);
    if (!found) {
      const copy = copies.get(generation);
      const later = [...copies.keys()].filter((g) => g > generation).sort((x, y) => x - y)[0];
      const link = links.get(generation + 1);
      found = copy
        ? openPageKey(copy, place(generation), ring.log, me, ring.keysOf, { extractable: true })
        : later !== undefined && link !== undefined
          ? openedFor(generation + 1).then(async (next) => openPageKeyLink(await vouched(next, link), link, place(generation + 1), { extractable: true }))
          : Promise.reject(new PageKeyWaitingError());
      found.catch(() => keys.delete(generation));
      keys.set(generation, found);
    }
    return found;
  };
  const keyFor = async (generation: number): Promise<Key> => (await openedFor(generation)).key;
  return { pageId, restricted: answer.restricted, generation: answer.generation, keyFor, openedFor, answer };
}

/** GET /api/pages/{id}/keys, opened. */
export async function loadPageKeys(ring: GroupRing, holder: UnlockedKeys, pageId: number, signal?: AbortSignal): Promise<PageKeyRing> {
  return pageKeyRing(ring, holder, pageId, await call("GET /api/pages/{id}/keys", { params: { id: pageId }, signal }));
}

const cached = new Map<string, Promise<PageKeyRing>>();

/** The page's keys, kept for this group ring until forgotten (a 409 on a write, a change of the page's readers). */
export function openPageKeys(ring: GroupRing, holder: UnlockedKeys, pageId: number): Promise<PageKeyRing> {
  const id = `${holder.uid}:${ring.groupId}:${ring.epoch}:${pageId}`;
  let found = cached.get(id);
  if (!found) {
    found = loadPageKeys(ring, holder, pageId);
    found.catch(() => cached.delete(id));
    cached.set(id, found);
  }
  return found;
}

export function forgetPageKeys(): void {
  cached.clear();
}

/** Where a record of a page is sealed: under the group key's current epoch, or under the page key's current generation. */
export type RecordTarget = { ring: GroupRing; page: null } | { ring: GroupRing; page: { pageId: number; generation: number; key: Key } };

/** The key a new or changed record of the page goes under now. A restricted page whose key one does not hold: PageKeyWaitingError. */
export async function recordTarget(ring: GroupRing, holder: UnlockedKeys, pageId: number): Promise<RecordTarget> {
  const keys = await openPageKeys(ring, holder, pageId);
  if (!keys.restricted) return { ring, page: null };
  if (keys.generation === 0) throw new PageKeyWaitingError();
  return { ring, page: { pageId, generation: keys.generation, key: await keys.keyFor(keys.generation).catch(() => Promise.reject(new PageKeyWaitingError())) } };
}

/**
 * The administrator's keeper of a page's key: a first generation when a restricted page has none,
 * a new one (carrying the one before) when someone holding the current one reads the page no more,
 * and copies of the current one for readers who have none and whose key the group's log names.
 * Answers the page's keys as they are after it (or as they were when nothing was due).
 */
export async function keepPageKey(ring: GroupRing, holder: UnlockedKeys, pageId: number): Promise<PageKeyRing> {
  return keepLoadedPageKey(ring, holder, await loadPageKeys(ring, holder, pageId));
}

/** keepPageKey with the page's keys as just loaded. */
async function keepLoadedPageKey(ring: GroupRing, holder: UnlockedKeys, keys: PageKeyRing): Promise<PageKeyRing> {
  const pageId = keys.pageId;
  const rekey = keys.answer.rekey;
  if (!rekey || !keys.restricted) return keys;
  const me = await myIdentity(holder);
  const fresh = keys.generation === 0 || rekey.former.length > 0;
  const wanted = fresh ? rekey.readers : rekey.missing;
  const readers = await memberKeys(ring, holder, wanted);
  if (readers.length === 0) return keys;
  const generation = fresh ? keys.generation + 1 : keys.generation;
  const place = { groupId: ring.groupId, pageId, generation };
  // Copies of the current generation name its link as one's own verified copy does, never as the server serves it.
  const current = fresh ? null : await keys.openedFor(generation);
  const key = current ? current.key : await generatePageKey();
  const link = fresh && keys.generation > 0 ? await sealPageKeyLink(key, await keys.openedFor(keys.generation), place) : undefined;
  const linkDigest = current ? current.linkDigest : link ? await pageKeyLinkDigest(link) : null;
  const copies = await Promise.all(
    readers.map(async (reader) => ({ user_id: reader.userId, copy: (await sealPageKey(key, place, linkDigest, ring.log, reader, me)) as unknown as Record<string, unknown> })),
  );
  const answer = await call("POST /api/pages/{id}/keys", { params: { id: pageId }, body: { generation, ...(link ? { link } : {}), copies } });
  forgetPageKeys();
  return pageKeyRing(ring, holder, pageId, answer);
}

/** Progress of sealing a page's cards anew: how many of how many are done. */
export type ResealProgress = (done: number, total: number) => void;

/** Cards one multipatch changes (its limit is 50). */
const RESEAL_BATCH = 25;

/**
 * Seals every card of the page that is not under the key its records go under now (the group key
 * on a page readable by all, the current generation's on a restricted one: older generations stay
 * as they are) anew under that key, through the multipatch, reporting progress; then the cards'
 * comments the same way (POST …/comment/reseal). A record that does not open here is left as it
 * is (and counted).
 */
export async function resealPage(
  ring: GroupRing,
  holder: UnlockedKeys,
  keys: PageKeyRing,
  onProgress: ResealProgress = () => undefined,
  options: { comments: "always" | "withCards" } = { comments: "always" },
): Promise<{ resealed: number; unopened: number }> {
  const all: Response<"GET /api/motes">["motes"] = [];
  for (let before: number | undefined, more = true; more; ) {
    const answer = await call("GET /api/motes", { query: { page: keys.pageId, ...(before ? { before } : {}) } });
    all.push(...answer.motes);
    before = answer.next ?? undefined;
    more = answer.next !== null;
  }
  const misplaced = (view: { page_key: number | null }) => (keys.restricted ? view.page_key === null : view.page_key !== null);
  const due = all.filter(misplaced);
  if (keys.restricted && keys.generation === 0) return { resealed: 0, unopened: due.length };
  const target = keys.restricted ? { generation: keys.generation, key: await keys.keyFor(keys.generation) } : null;
  let resealed = 0;
  let unopened = 0;
  onProgress(0, due.length);
  for (let i = 0; i < due.length; i += RESEAL_BATCH) {
    const batch = due.slice(i, i + RESEAL_BATCH);
    const motes = [];
    for (const view of batch) {
      const record = { groupId: ring.groupId, recordId: view.record_id };
      let payload: MotePayload;
      try {
        payload =
          view.page_key === null
            ? await openMote(await ring.keyFor(view.epoch), view, { ...record, epoch: view.epoch })
            : await openMoteForPage(await keys.keyFor(view.page_key), view, { ...record, pageId: keys.pageId, generation: view.page_key });
      } catch (error) {
        if (!isCryptoError(error) && !(error instanceof PageKeyWaitingError)) throw error;
        unopened++;
        continue;
      }
      const sealed = target
        ? (({ generation, ...rest }) => ({ ...rest, epoch: ring.epoch, page_key: generation }))(await sealMoteForPage(target.key, { ...record, pageId: keys.pageId, generation: target.generation }, payload))
        : await sealMote(ring.key, { ...record, epoch: ring.epoch }, payload);
      motes.push({ id: view.id, domain_id: keys.pageId, ...sealed });
    }
    if (motes.length) await call("PATCH /api/motes/multipatch", { body: { group_id: ring.groupId, quick: 1, motes } });
    resealed += motes.length;
    onProgress(resealed + unopened, due.length);
  }
  // The cards' comments, each a record of its own, the same way (their own route: the multipatch takes cards).
  // A visit looks at them only when some card was out of place (each card with comments is one request).
  const commented = options.comments === "always" || due.length > 0 ? all.filter((m) => m.comments > 0) : [];
  for (const card of commented) {
    const { comments } = await call("GET /api/motes/{id}", { params: { id: card.id } });
    const changed = [];
    for (const view of comments.filter(misplaced)) {
      const record = { groupId: ring.groupId, recordId: view.record_id };
      let text: string;
      try {
        text = (
          view.page_key === null
            ? await openComment(await ring.keyFor(view.epoch), view, { ...record, epoch: view.epoch })
            : await openCommentForPage(await keys.keyFor(view.page_key), view, { ...record, pageId: keys.pageId, generation: view.page_key })
        ).text;
      } catch (error) {
        if (!isCryptoError(error) && !(error instanceof PageKeyWaitingError)) throw error;
        unopened++;
        continue;
      }
      const sealed = target
        ? (({ generation, ...rest }) => ({ ...rest, epoch: ring.epoch, page_key: generation }))(await sealCommentForPage(target.key, { ...record, pageId: keys.pageId, generation: target.generation }, { text }))
        : await sealComment(ring.key, { ...record, epoch: ring.epoch }, { text });
      changed.push({ id: view.id, ...sealed });
    }
    for (let i = 0; i < changed.length; i += COMMENT_RESEAL_MAX) {
      await call("POST /api/motes/{id}/comment/reseal", { params: { id: card.id }, body: { comments: changed.slice(i, i + COMMENT_RESEAL_MAX) } });
    }
    resealed += changed.length;
  }
  return { resealed, unopened };
}

/** What securePage reports: null while the key is made, then how many cards of how many are sealed anew. */
export type SealingProgress = (progress: { done: number; total: number } | null) => void;

/**
 * The page's key and cards as its lists want them now, in an administrator's browser (after a
 * permit, and once per visit of the page: a role's holders may have changed, or a browser may have
 * stopped half way): keepPageKey, then resealPage (not on a page never restricted; on a visit, comments
 * only when some card was out of place). Answers how many records were sealed anew and
 * how many did not open here.
 */
export async function securePage(groupId: number, pageId: number, holder: UnlockedKeys, onProgress: SealingProgress = () => undefined, visit = false) {
  onProgress(null);
  const ring = await openGroupRing(groupId, holder);
  const keys = await keepPageKey(ring, holder, pageId);
  // A page that was never restricted has nothing to seal anew (no record can be under a page key).
  if (!keys.restricted && keys.generation === 0) return { resealed: 0, unopened: 0 };
  return resealPage(ring, holder, keys, (done, total) => onProgress({ done, total }), { comments: visit ? "withCards" : "always" });
}

/** A page's level for those who configure it (group administrators): only they keep its key. */
const CONFIGURE = 3;

/** Progress of keeping a group's restricted pages' keys: how many pages of how many are done. */
export type UpkeepProgress = (done: number, total: number) => void;

/**
 * The upkeep of every restricted page of the group after a change of who reads them (a member
 * added, removed or made administrator, a role given, taken or deleted), in the browser of the
 * administrator who made it: keepPageKey for each (a new generation when a reader is gone, copies
 * for new readers), without waiting for a visit. A page given its first generation here has its
 * cards sealed anew at once; other cards stay where they are (a visit seals anything left out of
 * place). Every page is tried; the first failure is thrown after the last page (a visit does it
 * then). Answers how many restricted pages there were.
 */
export async function keepGroupPageKeys(groupId: number, holder: UnlockedKeys, onProgress: UpkeepProgress = () => undefined): Promise<number> {
  // The change may have moved the group on (a removal makes a new epoch): its log as it is now.
  forgetGroupRing(groupId);
  const ring = await openGroupRing(groupId, holder);
  const { menu } = await call("GET /api/groups/{id}", { params: { id: groupId } });
  const pages = menu.filter((p) => p.reserved === null && p.level >= CONFIGURE);
  const failures: unknown[] = [];
  const loaded = await Promise.all(pages.map((p) => loadPageKeys(ring, holder, p.id).catch((error: unknown) => void failures.push(error))));
  const due = loaded.filter((keys): keys is PageKeyRing => keys !== undefined && keys.restricted);
  onProgress(0, due.length);
  for (const [i, keys] of due.entries()) {
    try {
      // Another administrator's browser may have made the generation first (409): once more with the page's keys as they are then.
      const kept = await keepLoadedPageKey(ring, holder, keys).catch((error: unknown) => (isApiError(error, 409) ? keepPageKey(ring, holder, keys.pageId) : Promise.reject(error)));
      if (keys.generation === 0 && kept.generation > 0) await resealPage(ring, holder, kept, undefined, { comments: "withCards" });
    } catch (error) {
      failures.push(error);
    }
    onProgress(i + 1, due.length);
  }
  if (failures.length > 0) throw failures[0];
  return due.length;
}

/** One's own copy of a restricted page's current generation, opened: what a renewal of one's key carries over to the new key. */
export interface HeldPageKey {
  pageId: number;
  generation: number;
  opened: OpenedPageKey;
}

/**
 * The current generation of every restricted page of the group this administrator holds, opened
 * with the held key: read before a new key is registered, since the key-moved job takes the
 * copies for the old key away once it is (renew-groups.ts). A page whose key does not open here is
 * left out.
 */
export async function heldPageKeys(ring: GroupRing, holder: UnlockedKeys): Promise<HeldPageKey[]> {
  const { menu } = await call("GET /api/groups/{id}", { params: { id: ring.groupId } });
  const pages = menu.filter((p) => p.reserved === null && p.level >= CONFIGURE);
  const held = await Promise.all(
    pages.map(async (p): Promise<HeldPageKey | null> => {
      const keys = await loadPageKeys(ring, holder, p.id);
      if (!keys.restricted || keys.generation === 0) return null;
      const opened = await keys.openedFor(keys.generation).catch(() => null);
      return opened && { pageId: p.id, generation: keys.generation, opened };
    }),
  );
  return held.filter((h): h is HeldPageKey => h !== null);
}

/**
 * Seals each held generation again for `renewedTo` (the key this administrator renewed to) and
 * stores it as their own copy (POST …/keys: it replaces the one for the old key). Without it a
 * group's only administrator who renews would lose the restricted pages: nobody else may seal
 * their keys. A generation that moved on meanwhile is left to the upkeep. Answers how many.
 */
export async function sealOwnPageKeys(groupId: number, held: readonly HeldPageKey[], renewedTo: UnlockedKeys): Promise<number> {
  if (held.length === 0) return 0;
  forgetGroupRing(groupId);
  const ring = await openGroupRing(groupId, renewedTo);
  const [me, reader] = await Promise.all([myIdentity(renewedTo), myKey(renewedTo)]);
  let sealed = 0;
  for (const { pageId, generation, opened } of held) {
    const copy = await sealPageKey(opened.key, { groupId, pageId, generation }, opened.linkDigest, ring.log, reader, me);
    const body = { generation, copies: [{ user_id: renewedTo.uid, copy: copy as unknown as Record<string, unknown> }] };
    // 409: the key-moved job took the old copy off between the read and this write (then it is added anew), or the generation moved on.
    const stored = await call("POST /api/pages/{id}/keys", { params: { id: pageId }, body })
      .catch((error: unknown) => (isApiError(error, 409) ? call("POST /api/pages/{id}/keys", { params: { id: pageId }, body }) : Promise.reject(error)))
      .catch((error: unknown) => (isApiError(error, 409) ? null : Promise.reject(error)));
    if (stored) sealed++;
  }
  forgetPageKeys();
  return sealed;
}
