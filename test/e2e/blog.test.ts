import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { png } from "../support/png";
import { expectAccessible } from "./accessibility";
import { browserForSuite } from "./conversation-helpers";
import { expectRefused, groupWithCardPage, openCardPage } from "./card-pages";

/**
 * The blog page in the browser (issue 14; spec 002 §2 Blog, §5, §9): a post written in the card
 * editor (title and content required), its teaser (title, the date in the Swiss German locale, the
 * first 255 characters), More and Less, the attachment swiper and the photo browser for its
 * images, comments, editing and deleting; the empty state, a read-only member and one refused.
 */

const unique = () => Math.random().toString(36).slice(2, 7);

describe("the blog page", () => {
  const { signedIn } = browserForSuite();
  const editor = (page: Page) => page.getByRole("dialog");
  const post = (page: Page, title: string) => page.getByRole("listitem").filter({ hasText: title });
  const browser = (page: Page) => page.getByRole("dialog", { name: "Photo browser" });
  const caption = (page: Page) => browser(page).locator("[data-photo-caption]");

  it("writes a post in the editor, shows its teaser and the whole post with swiper, photo browser and comments, edits and deletes it; a reader only reads and comments, a stranger is refused", { timeout: 300_000 }, async () => {
    const tag = unique();
    const { group, page: blog, browsers } = await groupWithCardPage(signedIn, "blog", `Diary ${tag}`, tag);
    const { ann: a, ben: b, cat: c } = browsers;
    // The empty state; a post needs a title and content.
    await openCardPage(a, group, blog);
    await a.getByText("No posts yet.").waitFor();
    await a.getByRole("button", { name: "Add", exact: true }).click();
    await editor(a).getByRole("button", { name: "Save" }).click();
    await editor(a).getByText("Title needs a value.").waitFor();
    await editor(a).getByText("Content needs a value.").waitFor();

    // Media, an image and a text attached: the swiper's three slides.
    const files = [
      ["Choose an image or video", "hof.png", "image/png", png(400, 300)],
      ["Choose a file to attach", "garten.png", "image/png", png(300, 200)],
      ["Choose a file to attach", `plan-${tag}.txt`, "text/plain", Buffer.from("Plan: Hof")],
    ] as const;
    for (const [input, name, mimeType, buffer] of files) {
      await editor(a).getByLabel(input).setInputFiles({ name, mimeType, buffer });
      await editor(a).locator('[data-upload-state="success"]').filter({ hasText: name }).waitFor({ timeout: 60_000 });
    }
    const title = `Frühling ${tag}`;
    const content = `${"Im Hof blühen die Tulpen, und 🌷 überall. ".repeat(9)}Ende.`;
    await editor(a).getByLabel("Title").fill(title);
    await editor(a).getByLabel("Content").fill(content);
    await editor(a).getByLabel("Body").click();
    await a.keyboard.type("Fotos folgen");
    await editor(a).getByRole("button", { name: "Save" }).click();
    await editor(a).waitFor({ state: "detached", timeout: 60_000 });

    // The teaser: title, today's date as in Switzerland, the first 255 characters.
    await post(a, title).waitFor();
    expect(await post(a, title).locator("[data-post-date]").innerText()).toBe(new Intl.DateTimeFormat("de-CH", { dateStyle: "medium" }).format(new Date()));
    expect(await post(a, title).locator("[data-post-teaser]").innerText()).toBe(`${[...content].slice(0, 255).join("")}…`);
    expect(await post(a, title).locator("[data-post-content]").count()).toBe(0);
    await expectAccessible(a, "a blog with a post");

    // Ben reads: no Add, no Edit; More opens the whole post, Less closes it.
    await openCardPage(b, group, blog);
    await post(b, title).waitFor();
    expect(await b.getByRole("button", { name: "Add", exact: true }).count()).toBe(0);
    expect(await post(b, title).getByRole("button", { name: `Edit ${title}` }).count()).toBe(0);
    await post(b, title).getByRole("button", { name: `More of ${title}` }).click();
    expect(await post(b, title).locator("[data-post-content]").innerText()).toBe(content);
    await post(b, title).locator("[data-rich-body]").getByText("Fotos folgen").waitFor();
    // The swiper: the media's thumbnail first; Next and Previous go round its three slides.
    const swiper = post(b, title).getByRole("region", { name: "Attachments" });
    await swiper.locator('[data-slide="shown"] img[data-thumb-state="thumb"]').waitFor({ timeout: 30_000 });
    await swiper.getByText("1 / 3").waitFor();
    await swiper.getByRole("button", { name: "Previous attachment" }).click();
    await swiper.getByText("3 / 3").waitFor();
    await swiper.locator(`[data-slide="shown"] [data-attachment-name="plan-${tag}.txt"]`).waitFor();
    await swiper.getByRole("button", { name: "Next attachment" }).click();
    await swiper.getByText("1 / 3").waitFor();
    await expectAccessible(b, "a whole post");
    // The photo browser over the post's images: arrows go round, Escape closes.
    await swiper.getByRole("button", { name: "Show hof.png" }).click();
    await browser(b).locator('[data-photo="shown"] img[data-media-state="loaded"]').waitFor({ timeout: 30_000 });
    expect(await caption(b).innerText()).toBe("hof.png");
    await b.keyboard.press("ArrowRight");
    expect(await caption(b).innerText()).toBe("garten.png");
    await browser(b).locator('[data-photo="shown"] img[data-media-state="loaded"]').waitFor({ timeout: 30_000 });
    await b.keyboard.press("ArrowRight");
    expect(await caption(b).innerText()).toBe("hof.png");
    await b.keyboard.press("ArrowLeft");
    expect(await caption(b).innerText()).toBe("garten.png");
    await b.keyboard.press("Escape");
    await browser(b).waitFor({ state: "detached" });
    // A comment, posted with Enter.
    await post(b, title).getByText("No comments yet.").waitFor();
    await post(b, title).getByLabel("New comment").fill("Schöne Bilder");
    await post(b, title).getByLabel("New comment").press("Enter");
    await post(b, title).getByText("Schöne Bilder").waitFor();
    await post(b, title).getByRole("button", { name: `Less of ${title}` }).click();
    await post(b, title).locator("[data-post-teaser]").waitFor();
    expect(await post(b, title).locator("[data-post-content]").count()).toBe(0);

    // Cat may not see the page: it is not in her menu, and its address is refused.
    await expectRefused(c, group, blog, `Diary ${tag}`);

    // Ann edits the title; she sees Ben's comment.
    await openCardPage(a, group, blog);
    await post(a, title).getByRole("button", { name: `Edit ${title}` }).click();
    await editor(a).getByLabel("Title").fill(`${title} (neu)`);
    await editor(a).getByRole("button", { name: "Save" }).click();
    await editor(a).waitFor({ state: "detached", timeout: 60_000 });
    await post(a, `${title} (neu)`).getByRole("button", { name: `More of ${title} (neu)` }).click();
    await post(a, `${title} (neu)`).getByText("Schöne Bilder").waitFor();

    // And deletes the post: the empty state, for Ben the read-only text.
    await post(a, `${title} (neu)`).getByRole("button", { name: `Edit ${title} (neu)` }).click();
    await editor(a).getByRole("button", { name: "Delete" }).click();
    await editor(a).getByRole("button", { name: "Delete" }).click();
    await editor(a).waitFor({ state: "detached", timeout: 60_000 });
    await a.getByText("No posts yet.").waitFor();
    await openCardPage(b, group, blog);
    await b.getByText("Not allowed to edit or create items from this page!").waitFor();
  });
});
