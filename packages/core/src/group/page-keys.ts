import { createHash } from "node:crypto";
import { type PageKeysView, id as idSchema, pageKeyBody } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actor, PAGE_LEVEL, pageLevel, requireMember } from "../access";
import { sealedSince } from "../db/schema";
import { type TransactionEntities, type TransactionItem, db, writeTransaction } from "../db/service";
import { membersWho, readerContext } from "../drive/access";
import { fail, valid } from "../errors";
import type { GroupItem, GroupPageItem } from "./entities";
import { pageAccess } from "./pages";
import { pageResource } from "./views";
import "./entities";
import "./errors";

type Lists = Pick<GroupPageItem, "read" | "use" | "internal">;

/**
 * Page keys (docs/protocol.md, "Restricted pages"; docs/api.md, "Page keys"): a page whose read
 * permission is narrower than the group (its read or use list names someone, or it is internal)
 * keeps its records' keys under a page key of its own. An administrator's browser makes each
 * generation and seals it for each reader; the server stores the copies, one per reader, hands
 * each member their own only, refuses copies for anyone who does not read the page, and refuses
 * a record of such a page whose key is not under its current generation.
 */
export namespace PageKeys {
  /**
   * A reader's account key moved at `movedAt` (renewed, or reset after they lost it; the key-moved
   * job): on each restricted page of the group, a copy of the current generation sealed for them
   * before then is for the old key, which they can no longer open. They stop counting as its
   * holder and the copy goes, so the page-key upkeep of an administrator's browser
   * (`rekey.missing` in `mine`) seals the generation for the key they hold now; the generations
   * before it reach them through the links. A copy sealed since (their own browser's, renewing)
   * stays, and so do they.
   */
  export async function readerKeyMoved(groupId: number, userId: number, movedAt: number): Promise<void> {
    const { data: pages } = await db().entities.grouppage.query.byGroup({ groupId }).go({ pages: "all" });
    for (const page of pages.filter((p) => !p.reserved && isRestricted(p) && generationOf(p) > 0)) {
      const generation = generationOf(page);
      // A copy added for someone else meanwhile changes the holders: read them again (a few times).
      for (let attempt = 0; attempt < 5; attempt++) {
        const [{ data: key }, { data: copy }] = await Promise.all([
          db().entities.pagekey.get({ pageId: page.id, generation }).go(),
          db().entities.pagekeycopy.get({ pageId: page.id, userId, generation }).go(),
        ]);
        if (!key?.holders.includes(userId) || sealedSince(copy, movedAt)) break;
        const { canceled } = await writeTransaction((tx) => [
          tx.pagekey
            .patch({ pageId: page.id, generation })
            .set({ holders: key.holders.filter((u) => u !== userId) })
            .where((attr, op) => op.eq(attr.holders, key.holders))
            .commit(),
          tx.pagekeycopy
            .delete({ pageId: page.id, userId, generation })
            .where((attr, op) => `${op.notExists(attr.at)} OR ${op.lt(attr.at, movedAt)}`)
            .commit(),
        ]);
        if (!canceled) break;
      }
    }
  }

  /** Whether the page's records go under a page key: fewer than all members read it. */
  export const isRestricted = (page: Lists): boolean => page.read.length > 0 || page.use.length > 0 || page.internal;

  /** The page's current generation (0: none yet). */
  export const generationOf = (page: Pick<GroupPageItem, "keyGen">): number => page.keyGen ?? 0;

  /**
   * Whether a record sealed under `pageKey` (a generation; undefined: the group key) may be
   * stored on the page as it is now: a restricted page's under its current generation (409
   * page_key_required without one, page_key_stale for another), any other page's under the group key
   * (422 page_key_unexpected).
   */
  export function requireSealing(page: Lists & Pick<GroupPageItem, "keyGen">, pageKey: number | undefined): void {
    if (!isRestricted(page)) {
      if (pageKey !== undefined) fail("page_key_unexpected");
      return;
    }
    if (pageKey === undefined || generationOf(page) === 0) fail("page_key_required");
    if (pageKey !== generationOf(page)) fail("page_key_stale");
  }

  /** A transaction's check that the page's lists and generation are still those read (a permit or a new generation in between: 409 page_key_stale). */
  export function sealingCheck(tx: TransactionEntities, page: GroupPageItem): TransactionItem {
    return tx.grouppage
      .check({ id: page.id })
      .where((attr, op) => unchanged(attr, op, page))
      .commit();
  }

  // ElectroDB's where callback: the attributes and operations of grouppage.
  type Where = Parameters<Parameters<ReturnType<TransactionEntities["grouppage"]["check"]>["where"]>[0]>;
  function unchanged(attr: Where[0], op: Where[1], page: GroupPageItem): string {
    const gen = generationOf(page);
    const keyGen = gen === 0 ? `(${op.notExists(attr.keyGen)} OR ${op.eq(attr.keyGen, 0)})` : op.eq(attr.keyGen, gen);
    return `${keyGen} AND ${op.eq(attr.read, page.read)} AND ${op.eq(attr.use, page.use)} AND ${op.eq(attr.internal, page.internal)}`;
  }

  /** Who reads the page (its level 1 or more, access/can.ts): its administrators and the members its read or use list names, roles resolved to their holders. */
  export async function readersOf(group: GroupItem, page: GroupPageItem): Promise<Set<number>> {
    const roles = [...page.read, ...page.use].filter((g) => g.role).map((g) => g.id);
    const context = await readerContext(group, roles);
    return membersWho(context, (actor, membership) => pageLevel(actor, pageResource(page, membership)) >= PAGE_LEVEL.read);
  }

  /** How a generation's signed copies name its link (the crypto package's pageKeyLinkDigest): base64url(SHA-256(UTF-8(link))); null without one. */
  const linkDigestOf = (link: string | undefined): string | null => (link === undefined ? null : createHash("sha256").update(link, "utf8").digest("base64url"));

  async function generations(pageId: number) {
    const { data } = await db().entities.pagekey.query.byPage({ pageId }).go({ pages: "all" });
    return data;
  }

  /**
   * GET /api/pages/{id}/keys (its readers): the caller's own copies of the page's key, every
   * generation's link, and for administrators who reads it without a copy of the current
   * generation and who holds one but reads it no more.
   */
  export async function mine(actor: Actor, id: number): Promise<PageKeysView> {
    const { page, group, member } = await pageAccess(actor, id, "read");
    const me = requireMember(actor);
    const [{ data: copies }, keys] = await Promise.all([db().entities.pagekeycopy.query.byReader({ pageId: id, userId: me.uid }).go({ pages: "all" }), generations(id)]);
    const gen = generationOf(page);
    let rekey: PageKeysView["rekey"] = null;
    if (member?.admin) {
      const readers = await readersOf(group, page);
      const holders = new Set(keys.find((k) => k.generation === gen)?.holders ?? []);
      const restricted = isRestricted(page);
      rekey = {
        readers: restricted ? [...readers].sort((x, y) => x - y) : [],
        missing: restricted ? [...readers].filter((u) => !holders.has(u)).sort((x, y) => x - y) : [],
        former: [...holders].filter((u) => !restricted || !readers.has(u)).sort((x, y) => x - y),
      };
    }
    return {
      restricted: isRestricted(page),
      generation: gen,
      copies: copies.map((c) => ({ generation: c.generation, copy: JSON.parse(c.copy) as Record<string, unknown> })),
      links: keys.flatMap((k) => (k.link ? [{ generation: k.generation, link: k.link }] : [])),
      rekey,
    };
  }

  /**
   * POST /api/pages/{id}/keys (group administrators; else 403 permit_forbidden): a new generation
   * (the current one and 1, with the link to the one before from the second on) or copies of the
   * current one for readers who hold none, or for the caller again (theirs replaced: a renewed
   * key) (another generation: 409 page_key_stale). Each copy is
   * for a reader of the page as its lists are now, once, sealed by the caller, naming the
   * generation's link by its digest (422 page_key_invalid); a page readable by the whole group has no key (422 page_key_unexpected).
   * One transaction, conditional on the page's lists and generation as read: of two racing new
   * generations one is stored, the other is 409 page_key_stale.
   */
  export async function store(actor: Actor, id: number, body: z.input<typeof pageKeyBody>): Promise<PageKeysView> {
    const input = valid(pageKeyBody, body, "page_key_invalid");
    valid(idSchema, id);
    const { page, group } = await pageAccess(actor, id, "configure", "permit_forbidden");
    const me = requireMember(actor);
    if (page.reserved || !isRestricted(page)) fail("page_key_unexpected");
    const current = generationOf(page);
    const fresh = input.generation === current + 1;
    if (!fresh && input.generation !== current) fail("page_key_stale");
    const bad = (message: string) => fail("page_key_invalid", { message });
    if (fresh && (current > 0) !== (input.link !== undefined)) bad("A new generation after the first carries the one before it; the first carries none.");
    if (!fresh && input.link !== undefined) bad("Only a new generation carries a link.");
    const ids = input.copies.map((c) => c.user_id);
    if (new Set(ids).size !== ids.length) bad("One copy per reader.");
    if (input.copies.some((c) => c.copy.sealer !== me.uid)) bad("Each copy is sealed and signed by the one who sends it.");
    const readers = await readersOf(group, page);
    const outside = ids.filter((u) => !readers.has(u));
    if (outside.length) bad(`Not readers of this page: ${outside.map((u) => `user ${u}`).join(", ")}.`);
    const stored = fresh ? undefined : (await generations(id)).find((k) => k.generation === current);
    const held = stored?.holders ?? [];
    // One's own copy may be sealed again (for the key one renewed to, before the old one goes): it replaces the one held.
    const replaced = ids.filter((u) => held.includes(u));
    if (replaced.some((u) => u !== me.uid)) bad("A reader holds one copy of a generation.");
    const added = ids.filter((u) => !held.includes(u));
    // Each copy's signature covers the link its generation carries (docs/protocol.md, "Restricted pages"): the copies name that link.
    const linkDigest = linkDigestOf(fresh ? input.link : stored?.link);
    if (input.copies.some((c) => c.copy.linkDigest !== linkDigest)) bad("Each copy names the link its generation carries.");
    // The generation's holders: the new one's, those added, and (one's own copy again) that one still is one (the key-moved job may take one off meanwhile: 409, then it is added anew).
    const holdersWrite = (tx: TransactionEntities): TransactionItem => {
      if (fresh) return tx.pagekey.create({ pageId: id, generation: input.generation, groupId: page.groupId, sealer: me.uid, holders: ids, ...(input.link ? { link: input.link } : {}) }).commit();
      const key = { pageId: id, generation: current };
      if (!added.length) return tx.pagekey.check(key).where((attr, op) => op.contains(attr.holders, me.uid)).commit();
      const append = tx.pagekey.patch(key).append({ holders: added });
      return (replaced.length ? append.where((attr, op) => op.contains(attr.holders, me.uid)) : append).commit();
    };
    const { canceled } = await writeTransaction((tx) => [
      tx.grouppage
        .patch({ id })
        .set({ keyGen: input.generation })
        .where((attr, op) => unchanged(attr, op, page))
        .commit(),
      holdersWrite(tx),
      ...input.copies.map((c) => {
        const copy = { pageId: id, userId: c.user_id, generation: input.generation, copy: JSON.stringify(c.copy) };
        return (replaced.includes(c.user_id) ? tx.pagekeycopy.put(copy) : tx.pagekeycopy.create(copy)).commit();
      }),
    ]);
    if (canceled) fail("page_key_stale");
    return mine(actor, id);
  }
}
