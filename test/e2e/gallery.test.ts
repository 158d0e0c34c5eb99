import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { png } from "../support/png";
import { expectAccessible } from "./accessibility";
import { browserForSuite } from "./conversation-helpers";
import { http } from "../support/api";
import { expectRefused, groupWithCardPage, openCardPage, pinnedCard } from "./card-pages";
import { storedSession } from "./helpers";

/**
 * The gallery page in the browser (issue 14; spec 002 §2 Gallery, §5): pictures added through the
 * card editor (media required), thumbnails decrypted in the grid, the dark photo browser with the
 * titles as captions moved by keys, buttons and a drag, the full pictures fetched only when opened;
 * editing, deleting, the empty state, a read-only member and a member refused; a gallery of many
 * cards builds only the rows in view and the others as they are scrolled to; a gallery whose only
 * cards have no image or video shows its empty state.
 */

const unique = () => Math.random().toString(36).slice(2, 7);

describe("the gallery page", () => {
  const { signedIn } = browserForSuite();
  const editor = (page: Page) => page.getByRole("dialog");
  const item = (page: Page, title: string) => page.getByRole("listitem").filter({ hasText: title });
  const browser = (page: Page) => page.getByRole("dialog", { name: "Photo browser" });
  const caption = (page: Page) => browser(page).locator("[data-photo-caption]");

  async function addPicture(page: Page, title: string, name: string) {
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await editor(page).getByLabel("Choose an image or video").setInputFiles({ name, mimeType: "image/png", buffer: png(320, 240) });
    await editor(page).locator('[data-upload-state="success"]').filter({ hasText: name }).waitFor({ timeout: 60_000 });
    await editor(page).getByLabel("Title").fill(title);
    await editor(page).getByRole("button", { name: "Save" }).click();
    await editor(page).waitFor({ state: "detached", timeout: 60_000 });
    await item(page, title).locator('img[data-thumb-state="thumb"]').waitFor({ timeout: 30_000 });
  }

  it("adds pictures in the editor, browses them by keys, buttons and drag, edits and deletes them; a reader only looks, a stranger is refused", { timeout: 300_000 }, async () => {
    const tag = unique();
    const { group, page: gallery, browsers } = await groupWithCardPage(signedIn, "gallery", `Album ${tag}`, tag);
    const { ann: a, ben: b, cat: c } = browsers;
    // The empty state; a gallery's card needs media.
    await openCardPage(a, group, gallery);
    await a.getByText("No pictures yet.").waitFor();
    await a.getByRole("button", { name: "Add", exact: true }).click();
    await editor(a).getByLabel("Title").fill("Without a picture");
    await editor(a).getByRole("button", { name: "Save" }).click();
    await editor(a).getByText("Media needs a value.").waitFor();
    await editor(a).getByRole("button", { name: "Cancel" }).click();
    await editor(a).waitFor({ state: "detached" });

    await addPicture(a, `Berg ${tag}`, "berg.png");
    await addPicture(a, `See ${tag}`, "see.png");
    // The grid shows thumbnails only: no full picture is fetched before one is opened.
    expect(await a.locator("[data-media-state]").count()).toBe(0);
    await expectAccessible(a, "a gallery");

    // The photo browser: the title as caption, arrows, buttons and a drag go round; Escape closes.
    await item(a, `Berg ${tag}`).getByRole("button", { name: `Open Berg ${tag}` }).click();
    await browser(a).locator('[data-photo="shown"] img[data-media-state="loaded"]').waitFor({ timeout: 30_000 });
    expect(await caption(a).innerText()).toBe(`Berg ${tag}`);
    await expectAccessible(a, "the photo browser");
    await a.keyboard.press("ArrowRight");
    expect(await caption(a).innerText()).toBe(`See ${tag}`);
    await browser(a).getByText(/^[12] of 2$/).waitFor();
    await browser(a).locator('[data-photo="shown"] img[data-media-state="loaded"]').waitFor({ timeout: 30_000 });
    await a.keyboard.press("ArrowRight");
    expect(await caption(a).innerText()).toBe(`Berg ${tag}`);
    await a.keyboard.press("ArrowLeft");
    expect(await caption(a).innerText()).toBe(`See ${tag}`);
    await browser(a).getByRole("button", { name: "Next" }).click();
    expect(await caption(a).innerText()).toBe(`Berg ${tag}`);
    // A drag to the left shows the next picture, a short one stays.
    const stage = (await browser(a).locator("[data-photo-stage]").boundingBox())!;
    const y = stage.y + stage.height / 2;
    await a.mouse.move(stage.x + stage.width / 2, y);
    await a.mouse.down();
    await a.mouse.move(stage.x + stage.width / 2 - 200, y, { steps: 5 });
    await a.mouse.up();
    expect(await caption(a).innerText()).toBe(`See ${tag}`);
    await a.mouse.move(stage.x + stage.width / 2, y);
    await a.mouse.down();
    await a.mouse.move(stage.x + stage.width / 2 + 10, y);
    await a.mouse.up();
    expect(await caption(a).innerText()).toBe(`See ${tag}`);
    await a.keyboard.press("Escape");
    await browser(a).waitFor({ state: "detached" });

    // Ann renames a picture.
    await item(a, `Berg ${tag}`).getByRole("button", { name: `Edit Berg ${tag}` }).click();
    await editor(a).getByLabel("Title").fill(`Berge ${tag}`);
    await editor(a).getByRole("button", { name: "Save" }).click();
    await editor(a).waitFor({ state: "detached", timeout: 60_000 });
    await item(a, `Berge ${tag}`).waitFor();

    // Ben looks: thumbnails, the browser with the new caption, no Add, no Edit.
    await openCardPage(b, group, gallery);
    await item(b, `Berge ${tag}`).locator('img[data-thumb-state="thumb"]').waitFor({ timeout: 30_000 });
    expect(await b.getByRole("button", { name: "Add", exact: true }).count()).toBe(0);
    expect(await b.getByRole("button", { name: /^Edit / }).count()).toBe(0);
    await item(b, `Berge ${tag}`).getByRole("button", { name: `Open Berge ${tag}` }).click();
    expect(await caption(b).innerText()).toBe(`Berge ${tag}`);
    await b.keyboard.press("Escape");
    await browser(b).waitFor({ state: "detached" });

    // Cat may not see the page: it is not in her menu, and its address is refused.
    await expectRefused(c, group, gallery, `Album ${tag}`);

    // Ann deletes both: the empty state, for Ben the read-only text.
    for (const title of [`Berge ${tag}`, `See ${tag}`]) {
      await item(a, title).getByRole("button", { name: `Edit ${title}` }).click();
      await editor(a).getByRole("button", { name: "Delete" }).click();
      await editor(a).getByRole("button", { name: "Delete" }).click();
      await editor(a).waitFor({ state: "detached", timeout: 60_000 });
    }
    await a.getByText("No pictures yet.").waitFor();
    await openCardPage(b, group, gallery);
    await b.getByText("Not allowed to edit or create items from this page!").waitFor();
  });

  it("builds only the tiles in view of a gallery of many cards, and the others as it is scrolled", { timeout: 300_000 }, async () => {
    const tag = unique();
    const { group, page: gallery, browsers } = await groupWithCardPage(signedIn, "gallery", `Many ${tag}`, tag);
    const a = browsers.ann;
    await openCardPage(a, group, gallery);
    await addPicture(a, `Bild ${tag}`, "bild.png");
    // The test cannot seal cards (the group key lives in the members' browsers, and a card's
    // payload is bound to its record id): the page's one real card is listed CARDS times, each
    // under an id of its own, as a page of that many cards comes from the server.
    const CARDS = 60;
    const listing = (url: URL) => url.pathname === "/api/motes";
    await a.route(
      listing,
      async (route) => {
        const answer = await route.fetch();
        const body = (await answer.json()) as { motes: { id: number }[]; next?: number | null };
        const [card] = body.motes;
        const motes = card ? Array.from({ length: CARDS }, (_, i) => ({ ...card, id: card.id + i * 1000 })) : [];
        await route.fulfill({ response: answer, json: { ...body, motes, next: null } });
      },
    );
    await openCardPage(a, group, gallery);
    const tiles = a.getByRole("list", { name: "Pictures" }).getByRole("listitem");
    await tiles.first().locator('img[data-thumb-state="thumb"]').waitFor({ timeout: 30_000 });
    expect(await tiles.first().getAttribute("aria-setsize")).toBe(String(CARDS));
    const built = await tiles.count();
    expect(built).toBeGreaterThan(0);
    expect(built).toBeLessThan(CARDS);
    // The last tile is not built until the grid is scrolled to its end; then the first is gone.
    expect(await a.locator(`[aria-posinset="${CARDS}"]`).count()).toBe(0);
    await a.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)");
    await a.locator(`[aria-posinset="${CARDS}"] img[data-thumb-state="thumb"]`).waitFor({ timeout: 30_000 });
    await a.locator('[aria-posinset="1"]').waitFor({ state: "detached" });
    expect(await tiles.count()).toBeLessThan(CARDS);
    // The photo browser still goes round all of them by keys.
    await a.locator(`[aria-posinset="${CARDS}"]`).getByRole("button", { name: `Open Bild ${tag}` }).click();
    await browser(a).getByText(`${CARDS} of ${CARDS}`).waitFor();
    await a.keyboard.press("ArrowRight");
    await browser(a).getByText(`1 of ${CARDS}`).waitFor();
    await a.keyboard.press("Escape");
    await browser(a).waitFor({ state: "detached" });
    await a.unroute(listing);
  });

  it("shows the empty state when its cards have no image or video to show", { timeout: 300_000 }, async () => {
    const tag = unique();
    const { group, page: gallery, browsers } = await groupWithCardPage(signedIn, "gallery", `Bare ${tag}`, tag);
    const a = browsers.ann;
    // A card without media, as other page types and clients make them: Ann writes one on a
    // pinboard of the group that everyone may use (sealed under the group key, as the gallery's
    // cards of another client would be). The editor of a gallery asks for media, so the test lists
    // the pinboard's cards as the gallery's (a card opens by its group and record id, not its page).
    const sue = (await storedSession(browsers.sue))!;
    const board = (await http<{ id: number }>("POST", "/api/pages", { token: sue.api_token, body: { group, name: `Board ${tag}`, type: "pinboard" } })).body.id;
    await pinnedCard(a, group, board, `Notiz ${tag}`, "Nur Text, kein Bild");

    const listing = (url: URL) => url.pathname === "/api/motes" && url.searchParams.get("page") === String(gallery);
    let listed = 0;
    await a.route(listing, async (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set("page", String(board));
      const answer = await route.fetch({ url: url.toString() });
      const body = (await answer.json()) as { motes: unknown[] };
      listed += body.motes.length;
      await route.fulfill({ response: answer, json: body });
    });
    await openCardPage(a, group, gallery);
    await a.getByText("No pictures yet.").waitFor({ timeout: 30_000 });
    expect(listed).toBe(1);
    expect(await a.getByRole("list", { name: "Pictures" }).count()).toBe(0);
    await a.unroute(listing);
  });
});
