import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { png } from "../support/png";
import { expectAccessible } from "./accessibility";
import { browserForSuite } from "./conversation-helpers";
import { expectRefused, groupWithCardPage, openCardPage } from "./card-pages";

/**
 * The pinboard page in the browser (issues 13 and 14; spec 002 §2 Pinboard, spec 001 §2 Card
 * editor popup): cards made in the card editor (media, rich body, attachments, tags), sealed in the
 * author's browser and opened in another member's; the pin's popup with the media fetched when
 * viewed, attachments and comments; editing, deleting, the empty state, a read-only page and a
 * member without rights refused.
 */

const unique = () => Math.random().toString(36).slice(2, 7);

describe("the pinboard page", () => {
  const { signedIn } = browserForSuite();
  const editor = (page: Page) => page.getByRole("dialog");
  const pin = (page: Page, title: string) => page.getByRole("listitem").filter({ hasText: title });
  const openBoard = openCardPage;

  it("makes a card in the editor, shows it to members decrypted, comments on it, edits and deletes it; a read-only member only reads and comments, a stranger is refused", { timeout: 300_000 }, async () => {
    const tag = unique();
    // A pinboard that Ann may add to, Ben may only read, and Cat may not see.
    const { group, page: board, browsers } = await groupWithCardPage(signedIn, "pinboard", `Notices ${tag}`, tag);
    const { ann: a, ben: b, cat: c } = browsers;

    // The empty state; the add button opens the editor, which says what is encrypted.
    await openBoard(a, group, board);
    await a.getByText("Nothing is pinned here yet.").waitFor();
    await a.getByRole("button", { name: "Add", exact: true }).click();
    // The board is read by Ann and Ben only: the content is encrypted for them, not for the group.
    await editor(a).getByText("The content is encrypted for this page's readers: only they can read it, not the rest of the group.").waitFor();
    await expectAccessible(a, "the card editor");
    // A pinboard's card needs a title and content.
    await editor(a).getByRole("button", { name: "Save" }).click();
    await editor(a).getByText("Title needs a value.").waitFor();
    await editor(a).getByText("Content needs a value.").waitFor();

    // Media: a PDF is rejected there; an image is encrypted and uploaded. An attachment too.
    await editor(a).getByLabel("Choose an image or video").setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
    await editor(a).getByText("Only images and videos can be the media.").waitFor();
    await editor(a).getByLabel("Choose an image or video").setInputFiles({ name: `photo-${tag}.png`, mimeType: "image/png", buffer: png(400, 300) });
    await editor(a).locator('[data-upload-state="success"]').filter({ hasText: `photo-${tag}.png` }).waitFor({ timeout: 60_000 });
    await editor(a).getByLabel("Choose a file to attach").setInputFiles({ name: `agenda-${tag}.txt`, mimeType: "text/plain", buffer: Buffer.from("Agenda: budget") });
    await editor(a).locator('[data-upload-state="success"]').filter({ hasText: `agenda-${tag}.txt` }).waitFor({ timeout: 60_000 });
    // A second attachment, removed again before saving.
    await editor(a).getByLabel("Choose a file to attach").setInputFiles({ name: "draft.txt", mimeType: "text/plain", buffer: Buffer.from("draft") });
    await editor(a).locator('[data-upload-state="success"]').filter({ hasText: "draft.txt" }).waitFor({ timeout: 60_000 });
    await editor(a).getByRole("button", { name: "Remove draft.txt" }).click();
    expect(await editor(a).getByText("draft.txt").count()).toBe(0);

    const title = `Sommerfest ${tag}`;
    const content = `${"Wir feiern am Freitag im Hof. ".repeat(6)}Ende.`;
    await editor(a).getByLabel("Title").fill(title);
    await editor(a).getByLabel("Content").fill(content);
    await editor(a).getByLabel("Body").click();
    await a.keyboard.type("Bring a salad");
    await editor(a).getByLabel("Font size").selectOption("18pt");
    await editor(a).getByLabel("Tags").fill(" fest, ,Fest , hof");
    await editor(a).getByRole("button", { name: "Save" }).click();
    await editor(a).waitFor({ state: "detached", timeout: 60_000 });

    // The card: its title, the first 100 characters of its content, its thumbnail.
    await pin(a, title).waitFor();
    expect(await pin(a, title).locator("[data-pin-preview]").innerText()).toBe([...content].slice(0, 100).join(""));
    await pin(a, title).locator('img[data-thumb-state="thumb"]').waitFor({ timeout: 30_000 });
    // Spec 002 §9: the pin's media keeps a 100 px spacer.
    expect(await pin(a, title).locator("[data-pin-spacer]").evaluate((el) => (el as unknown as { style: { minHeight: string } }).style.minHeight)).toBe("100px");

    // Ben reads it in his browser: no add button, no Edit on a page he may only read.
    await openBoard(b, group, board);
    await pin(b, title).locator('img[data-thumb-state="thumb"]').waitFor({ timeout: 30_000 });
    expect(await b.getByRole("button", { name: "Add", exact: true }).count()).toBe(0);
    expect(await pin(b, title).getByRole("button", { name: `Edit ${title}` }).count()).toBe(0);
    await expectAccessible(b, "a pinboard with a card");
    // The popup: the media fetched and decrypted now, the content, the attachment, comments.
    await pin(b, title).getByRole("button", { name: `View ${title}` }).click();
    const popup = b.getByRole("dialog");
    await popup.locator('img[data-media-state="loaded"]').waitFor({ timeout: 30_000 });
    expect(await popup.locator("[data-pin-content]").innerText()).toBe(content);
    await popup.locator("[data-rich-body]").getByText("Bring a salad").waitFor();
    await popup.locator(`[data-attachment-name="agenda-${tag}.txt"]`).waitFor();
    await popup.getByText("No comments yet.").waitFor();
    // Spec 002 §9: the comment box is 60 to 180 px high.
    const box = popup.getByLabel("New comment");
    const heights = await box.evaluate((el) => {
      const { style } = el as unknown as { style: { minHeight: string; maxHeight: string } };
      return [style.minHeight, style.maxHeight];
    });
    expect(heights).toEqual(["60px", "180px"]);
    // An empty comment is not posted; Enter posts.
    const post = popup.getByRole("button", { name: "Post" });
    expect(await post.isDisabled()).toBe(true);
    await popup.getByLabel("New comment").fill("   ");
    expect(await post.isDisabled()).toBe(true);
    await popup.getByLabel("New comment").fill("Ich bringe Brot");
    await popup.getByLabel("New comment").press("Enter");
    await popup.getByText("Ich bringe Brot").waitFor();
    expect(await popup.getByLabel("New comment").inputValue()).toBe("");
    await expectAccessible(b, "a pin's popup with a comment");
    await b.keyboard.press("Escape");
    await popup.waitFor({ state: "detached" });

    // Ann edits it: the new title for everyone; she may not delete Ben's comment.
    await openBoard(a, group, board);
    await pin(a, title).getByRole("button", { name: `Edit ${title}` }).click();
    expect(await editor(a).getByLabel("Tags").inputValue()).toBe("fest, hof");
    await editor(a).getByLabel("Title").fill(`${title} (neu)`);
    await editor(a).getByRole("button", { name: "Save" }).click();
    await editor(a).waitFor({ state: "detached", timeout: 60_000 });
    await pin(a, `${title} (neu)`).getByRole("button", { name: `View ${title} (neu)` }).click();
    await a.getByRole("dialog").getByText("Ich bringe Brot").waitFor();
    expect(await a.getByRole("dialog").getByRole("button", { name: "Delete comment" }).count()).toBe(0);
    await a.getByRole("dialog").getByRole("button", { name: "Close" }).last().click();
    await a.getByRole("dialog").waitFor({ state: "detached" });
    await openBoard(b, group, board);
    await pin(b, `${title} (neu)`).waitFor();
    // Cat may not see the page: it is not in her menu, and its address is refused.
    await expectRefused(c, group, board, `Notices ${tag}`);

    // And deletes it, after a confirmation: the empty state again, for Ben the read-only text.
    await pin(a, `${title} (neu)`).getByRole("button", { name: `Edit ${title} (neu)` }).click();
    await editor(a).getByRole("button", { name: "Delete" }).click();
    await editor(a).getByText("Delete this item for every member of the group?").waitFor();
    await editor(a).getByRole("button", { name: "Delete" }).click();
    await editor(a).waitFor({ state: "detached", timeout: 60_000 });
    await a.getByText("Nothing is pinned here yet.").waitFor();
    await openBoard(b, group, board);
    await b.getByText("Not allowed to edit or create items from this page!").waitFor();
  });
});
