import { db } from "@sealwork/core/db/service";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { createSession } from "../support/users";
import { addCard, groupMadeIn } from "./card-pages";
import { browserForSuite } from "./conversation-helpers";
import { gotoApp } from "./helpers";

/**
 * A restricted page in the browser (issue 13; docs/protocol.md, "Restricted pages"): the
 * administrator restricts a pinboard to one member in the permission editor, which makes the page
 * key for its readers and seals the card made before anew under it; that member adds and reads a
 * card; a member outside the page, handed the raw answers in his own browser, opens nothing of
 * them; named on the read list, he reads them.
 */

const unique = () => Math.random().toString(36).slice(2, 7);

describe("a restricted page", () => {
  const { signedIn } = browserForSuite();
  const dialog = (page: Page) => page.getByRole("dialog");
  const pin = (page: Page, title: string) => page.getByRole("listitem").filter({ hasText: title });

  async function openBoard(page: Page, group: number, board: number) {
    await gotoApp(page, `/group/${group}/page/${board}`);
    await page.getByText(/Decrypting cards…/).waitFor({ state: "detached", timeout: 60_000 });
  }

  async function permissions(page: Page, group: number, board: number) {
    await openBoard(page, group, board);
    await page.getByRole("button", { name: "Page settings" }).click();
    await page.getByRole("menuitem", { name: "Configure menu item" }).click();
    await page.getByRole("dialog", { name: "Configure menu item" }).getByRole("button", { name: "Access permissions" }).click();
    return page.getByRole("dialog", { name: "Permissions: Lohn" });
  }

  it("restricted to one member: her cards under the page key; a member outside opens nothing even with the raw answers; on the list he reads them", { timeout: 400_000 }, async () => {
    const tag = unique();
    const [sue, ann, ben] = await Promise.all([createSession({ admin: true, superAdmin: true, name: `Sue ${tag}` }), createSession({ name: `Ann ${tag}` }), createSession({ name: `Ben ${tag}` })]);
    const [s, a, b] = await Promise.all([sue, ann, ben].map(signedIn));
    const group = await groupMadeIn(s!, `HR ${tag}`, [`Ann ${tag}`, `Ben ${tag}`]);
    const board = (await http<{ id: number }>("POST", "/api/pages", { token: sue.api_token, body: { group, name: "Lohn", type: "pinboard" } })).body.id;

    // Open to the group first: Ben pins a card under the group key.
    const before = `Vorher ${tag}`;
    await openBoard(b!, group, board);
    await addCard(b!, before, "Für alle sichtbar");
    await pin(b!, before).getByRole("button", { name: `View ${before}` }).click();
    await dialog(b!).getByLabel("New comment").fill(`Kommentar ${tag}`);
    await dialog(b!).getByLabel("New comment").press("Enter");
    await dialog(b!).getByText(`Kommentar ${tag}`).waitFor();
    await b!.keyboard.press("Escape");
    await dialog(b!).waitFor({ state: "detached" });

    // Sue restricts the page to Ann in the permission editor: the key is made, Ben's card sealed anew under it.
    const editor = await permissions(s!, group, board);
    await editor.getByLabel("Add to Use").click();
    await s!.getByRole("option", { name: `Ann ${tag}` }).click();
    // The re-sealing shows its progress: held at the server's door until the text is seen.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await s!.route("**/api/motes/multipatch", async (route) => {
      await held;
      await route.continue();
    });
    await editor.getByRole("button", { name: "Save" }).click();
    await editor.getByRole("status").filter({ hasText: "Encrypting this page's cards for its readers: 0 of 1" }).waitFor({ timeout: 60_000 });
    release();
    await editor.waitFor({ state: "detached", timeout: 120_000 });
    await s!.unrouteAll();
    const keys = (await http<{ generation: number; copies: unknown[]; rekey: { readers: number[]; missing: number[] } }>("GET", `/api/pages/${board}/keys`, { token: sue.api_token })).body;
    expect(keys.generation).toBe(1);
    expect(keys.rekey.readers.sort()).toEqual([sue.id, ann.id].sort());
    expect(keys.rekey.missing).toEqual([]);
    const stored = (await db().entities.pagemote.query.byPage({ pageId: board }).go()).data;
    expect(stored.map((m) => m.pageKey)).toEqual([1]);
    // Its comment too (a record of its own).
    expect((await db().entities.motecomment.query.byMote({ moteId: stored[0]!.id }).go()).data.map((c) => c.pageKey)).toEqual([1]);

    // Ann reads Ben's old card and adds her own, both under the page key.
    const secret = `Lohnliste ${tag}`;
    await openBoard(a!, group, board);
    await pin(a!, before).waitFor();
    await addCard(a!, secret, "Ann 7200, Ben 6900");
    await openBoard(a!, group, board);
    await pin(a!, secret).waitFor();
    expect((await db().entities.pagemote.query.byPage({ pageId: board }).go()).data.map((m) => m.pageKey)).toEqual([1, 1]);

    // Ben, outside: the server refuses him the page, its cards and its keys.
    expect((await http("GET", `/api/motes?page=${board}`, { token: ben.api_token })).body).toMatchObject({ code: "page_forbidden" });
    expect((await http("GET", `/api/pages/${board}/keys`, { token: ben.api_token })).body).toMatchObject({ code: "page_forbidden" });
    // Handed the raw answers in his own browser (the page, its cards, and Sue's copies of the key),
    // first as they are, then with the cards claiming to be under the group key: nothing opens.
    const raw = async (path: string) => (await http<Record<string, unknown>>("GET", path, { token: sue.api_token })).body;
    const pageView = { ...(await raw(`/api/pages/${board}`)), level: 1, read_only: true, can_create: false, is_editable: false };
    const cards = (await raw(`/api/motes?page=${board}`)) as { motes: Record<string, unknown>[] };
    const sues = { ...(await raw(`/api/pages/${board}/keys`)), rekey: null };
    let claimGroupKey = false;
    await b!.route(new RegExp(`/api/pages/${board}(\\?.*)?$`), (route) => route.fulfill({ json: pageView }));
    await b!.route(new RegExp(`/api/pages/${board}/keys$`), (route) => route.fulfill({ json: sues }));
    await b!.route(new RegExp(`/api/motes\\?page=${board}`), (route) =>
      route.fulfill({ json: { ...cards, motes: cards.motes.map((m) => ({ ...m, editable: false, ...(claimGroupKey ? { page_key: null } : {}) })) } }),
    );
    for (const claim of [false, true]) {
      claimGroupKey = claim;
      await openBoard(b!, group, board);
      await expect.poll(() => pin(b!, "Invalid item").count(), { timeout: 30_000 }).toBe(2);
      expect(await b!.getByText(secret).count()).toBe(0);
      expect(await b!.getByText(before).count()).toBe(0);
    }
    await b!.unrouteAll();

    // Named on the read list, Ben reads both (Sue's editor seals a copy of the key for him).
    const again = await permissions(s!, group, board);
    await again.getByLabel("Add to Read").click();
    await s!.getByRole("option", { name: `Ben ${tag}` }).click();
    await again.getByRole("button", { name: "Save" }).click();
    await again.waitFor({ state: "detached", timeout: 120_000 });
    await openBoard(b!, group, board);
    await pin(b!, secret).waitFor({ timeout: 30_000 });
    await pin(b!, before).getByRole("button", { name: `View ${before}` }).click();
    await dialog(b!).getByText(`Kommentar ${tag}`).waitFor({ timeout: 30_000 });
    await b!.keyboard.press("Escape");
    expect(await b!.getByRole("button", { name: "Add", exact: true }).count()).toBe(0);
  });
});
