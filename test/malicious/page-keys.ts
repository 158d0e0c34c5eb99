import {
  type AccountKeys,
  type Key,
  generatePageKey,
  importSymmetricKey,
  openSealed,
  pageKeyContext,
  parseEnvelope,
  sealMoteForPage,
  sealPageKeyLink,
} from "@sealwork/crypto";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { http } from "../support/api";
import { BROWSER_SECURE_CODE } from "../support/keys";
import { createSession } from "../support/users";
import { groupMadeIn, openCardPage, pageKeyMade } from "../e2e/card-pages";
import { signIn } from "../e2e/helpers";
import type { MaliciousSuite, Run } from "./harness";
import { openBackup } from "../support/identities";

/**
 * Restricted pages (docs/protocol.md, "Restricted pages") against a server that serves another
 * link between page key generations than the one the administrator signed. A reader who holds a
 * generation's key (here Ann, whose key the test recovers from her backup as her browser would)
 * can make a link of that generation that opens and carries a key of her choosing; with it, the
 * server passes off cards of its own making as the page's older ones to readers who reach them
 * through the chain (Cat, who joined the page at the second generation).
 */

type Person = Awaited<ReturnType<typeof createSession>>;
interface KeysAnswer {
  generation: number;
  copies: { generation: number; copy: { sealed: string } }[];
  links: { generation: number; link: string }[];
}

/** Signs `person` in on a fresh page through the run's proxy; their keys are made there on first sign-in. */
async function signedIn(run: Run, person: Person): Promise<Page> {
  const page = await run.visitor();
  await signIn(page, person.email!, person.password);
  await page.getByRole("heading", { name: /^Hello/ }).waitFor();
  return page;
}

/** A member's account keys as their browser recovers them from the server's backup (the browser tests' secure code). */
async function accountKeysOf(person: Person): Promise<AccountKeys> {
  const state = await http<{ keypair: { id: number } }>("GET", "/api/keypairs", { token: person.api_token });
  const backup = await http<{ recover: Record<string, unknown> }>("POST", `/api/keypairs/${state.body.keypair.id}/recover`, { token: person.api_token });
  return openBackup(backup.body.recover, BROWSER_SECURE_CODE, person.api_token);
}

/** A reader's page key of `generation`, opened from their copy (what any holder of the copy learns). */
async function pageKeyOf(person: Person, keys: AccountKeys, groupId: number, pageId: number, generation: number): Promise<Key> {
  const answer = (await http<KeysAnswer>("GET", `/api/pages/${pageId}/keys`, { token: person.api_token })).body;
  const { copy } = answer.copies.find((c) => c.generation === generation)!;
  const raw = await openSealed(parseEnvelope(copy.sealed, "sealed"), keys.encrypt, { context: pageKeyContext({ groupId, pageId, generation }) });
  return importSymmetricKey(raw, { extractable: true });
}

const unique = () => Math.random().toString(36).slice(2, 7);
const pin = (page: Page, title: string) => page.getByRole("listitem").filter({ hasText: title });

export function pageKeyAttacks(suite: MaliciousSuite): void {
  suite.attack("a forged link between page key generations: made by a reader of the second, it carries a key of the server's choosing to a card of its making", {
    check: "page-key-link",
    timeout: 400_000,
    async mount(run) {
      const tag = unique();
      const people = await Promise.all(["Sue", "Ann", "Ben", "Cat"].map((name, i) => createSession({ admin: i === 0, superAdmin: i === 0, name: `${name} ${tag}` })));
      const [sue, ann, ben, cat] = people as [Person, Person, Person, Person];
      const [s, , , c] = (await Promise.all(people.map((person) => signedIn(run, person)))) as [Page, Page, Page, Page];
      const group = await groupMadeIn(s, `HR ${tag}`, [`Ann ${tag}`, `Ben ${tag}`, `Cat ${tag}`]);
      const board = (await http<{ id: number }>("POST", "/api/pages", { token: sue.api_token, body: { group, name: "Lohn", type: "pinboard" } })).body.id;
      const permit = async (use: Person[]) => expect((await http("POST", `/api/pages/${board}/permit`, { token: sue.api_token, body: { read: [], use: use.map((p) => ({ role: false, id: p.id })) } })).status).toBe(200);

      // Generation 1 for Sue, Ann and Ben; Ann pins a card under it.
      await permit([ann, ben]);
      await pageKeyMade(s, sue, group, board);
      const annKeys = await accountKeysOf(ann);
      const first = await pageKeyOf(ann, annKeys, group, board, 1);
      const pinCard = async (key: Key, generation: number, recordId: string, title: string) => {
        const sealed = await sealMoteForPage(key, { groupId: group, recordId, pageId: board, generation }, { title });
        const made = await http<{ mote: { id: number } }>("POST", "/api/motes", {
          token: ann.api_token,
          body: { group_id: group, page_id: board, record_id: recordId, payload: sealed.payload, dockey: sealed.dockey, epoch: 0, page_key: generation },
        });
        expect(made.status).toBe(200);
        return made.body.mote.id;
      };
      const recordId = "AAECAwQFBgcICQoLDA0ODw";
      const genuine = `Lohnliste ${tag}`;
      const cardId = await pinCard(first, 1, recordId, genuine);

      // Ben leaves the page and Cat joins: Sue's browser makes generation 2, carrying generation 1. Cat holds generation 2 only.
      await permit([ann, cat]);
      await pageKeyMade(s, sue, group, board);
      const second = await pageKeyOf(ann, annKeys, group, board, 2);
      const newer = `Neu ${tag}`;
      await pinCard(second, 2, "DwAODQwLCgkIBwYFBAMCAQ", newer);
      // Served honestly, Cat reads the old card through the chain, and the new one.
      await openCardPage(c, group, board);
      await pin(c, genuine).waitFor({ timeout: 30_000 });
      await pin(c, newer).waitFor();

      // The forgery, with Ann's copy of generation 2: a link to a key of the server's own, and a card under that key in the old card's place.
      const serversKey = await generatePageKey();
      const forgedLink = await sealPageKeyLink(second, { key: serversKey, linkDigest: null }, { groupId: group, pageId: board, generation: 2 });
      const forged = `Gefälscht ${tag}`;
      const forgedCard = await sealMoteForPage(serversKey, { groupId: group, recordId, pageId: board, generation: 1 }, { title: forged });
      const linkLie = run.proxy.lie("GET", `/api/pages/${board}/keys`, (answer: KeysAnswer) => ({
        ...answer,
        links: answer.links.map((l) => (l.generation === 2 ? { ...l, link: forgedLink } : l)),
      }));
      const cardLie = run.proxy.lie("GET", "/api/motes", (answer: { motes: Record<string, unknown>[] }, exchange) =>
        exchange.query.get("page") === String(board) ? { ...answer, motes: answer.motes.map((m) => (m.id === cardId ? { ...m, payload: forgedCard.payload, dockey: forgedCard.dockey } : m)) } : answer,
      );
      await openCardPage(c, group, board);
      return { page: c, linkLie, cardLie, forged, genuine, newer };
    },
    async refused({ page, linkLie, cardLie, forged, genuine, newer }) {
      // The link is not the one Cat's signed copy of generation 2 names: the old card does not open, and nothing of the forgery shows.
      await expect.poll(() => pin(page, "Invalid item").count(), { timeout: 30_000 }).toBe(1);
      await pin(page, newer).waitFor();
      expect(await page.getByText(forged).count()).toBe(0);
      expect(await page.getByText(genuine).count()).toBe(0);
      expect(linkLie.hits).toBeGreaterThan(0);
      expect(cardLie.hits).toBeGreaterThan(0);
    },
    async works({ page, linkLie, cardLie, forged, newer }) {
      // Taken as served, the link opens with Cat's key of generation 2, and the server's card shows as the page's own.
      await pin(page, forged).waitFor({ timeout: 30_000 });
      await pin(page, newer).waitFor();
      expect(await pin(page, "Invalid item").count()).toBe(0);
      expect(linkLie.hits).toBeGreaterThan(0);
      expect(cardLie.hits).toBeGreaterThan(0);
    },
  });
}
