import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { createSession } from "../support/users";
import { browserForSuite } from "./conversation-helpers";
import { pageKeyMade } from "./card-pages";
import { gotoApp } from "./helpers";

/**
 * The calendar page in the browser (issue 14; spec 002 §2 Calendar): a card made by selecting days
 * on the calendar and saving the card editor, sealed in the author's browser; the event moved by
 * dragging, saved through the multipatch and still there after a reload; a refused move
 * put back with the spec's text; the event viewer; a read-only member who sees but cannot move.
 */

const unique = () => Math.random().toString(36).slice(2, 7);
const pad = (n: number) => String(n).padStart(2, "0");
const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const plusDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);

describe("the calendar page", () => {
  const { signedIn } = browserForSuite();
  const editor = (page: Page) => page.getByRole("dialog");
  const main = (page: Page) => page.locator("[data-calendar-main]");
  const cell = (page: Page, d: Date) => main(page).locator(`td.fc-daygrid-day[data-date="${day(d)}"]`);
  const event = (page: Page, title: string) => main(page).locator(".fc-event").filter({ hasText: title }).first();

  async function openCalendar(page: Page, group: number, calendar: number) {
    await gotoApp(page, `/group/${group}/page/${calendar}`);
    await main(page).locator(".fc-daygrid-day").first().waitFor({ timeout: 60_000 });
  }

  /** A mouse drag from the centre of one element to the centre of another, in small steps (FullCalendar's pointer dragging). */
  async function drag(page: Page, from: { x: number; y: number }, to: { boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> }) {
    const box = (await to.boundingBox())!;
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 5, from.y + 5, { steps: 3 });
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 12 });
    await page.mouse.up();
  }
  const centre = async (locator: { boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> }) => {
    const box = (await locator.boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  async function times(page: Page, title: string) {
    await event(page, title).click();
    await page.getByRole("dialog").getByRole("button", { name: "Edit" }).click();
    const values = [await editor(page).getByLabel("Event start").inputValue(), await editor(page).getByLabel("Event end").inputValue()];
    await editor(page).getByRole("button", { name: "Cancel" }).click();
    await editor(page).waitFor({ state: "detached" });
    return values;
  }

  it("creates an event by selecting days, moves it for good, puts a refused move back, and shows it read-only to a reader", { timeout: 300_000 }, async () => {
    const tag = unique();
    const [sue, ann, ben] = await Promise.all([createSession({ admin: true, superAdmin: true, name: `Sue ${tag}` }), createSession({ name: `Ann ${tag}` }), createSession({ name: `Ben ${tag}` })]);
    const [s, a, b] = await Promise.all([sue, ann, ben].map(signedIn));
    await gotoApp(s!, "/group/new");
    await s!.getByLabel("Name").fill(`Kalender ${tag}`);
    for (const who of [`Ann ${tag}`, `Ben ${tag}`]) {
      await s!.getByRole("textbox", { name: "Search people" }).fill(who);
      await s!.getByRole("listitem").filter({ hasText: who }).first().click();
    }
    await s!.getByRole("button", { name: "Create group" }).click();
    await s!.waitForURL(/\/group\/\d+\/page\/members$/, { timeout: 60_000 });
    const group = Number(/\/group\/(\d+)\//.exec(s!.url())![1]);
    await s!.locator('[data-group-key="ready"][data-group-key-epoch="0"]').waitFor({ timeout: 30_000 });
    const calendar = (await http<{ id: number }>("POST", "/api/pages", { token: sue.api_token, body: { group, name: "Termine", type: "calendar" } })).body.id;
    expect((await http("POST", `/api/pages/${calendar}/permit`, { token: sue.api_token, body: { read: [{ role: false, id: ben.id }], use: [{ role: false, id: ann.id }] } })).status).toBe(200);
    await pageKeyMade(s!, sue, group, calendar);

    // The days used: the first Tuesday from the 8th of this month, the Wednesday after, a week later.
    const now = new Date();
    let tuesday = new Date(now.getFullYear(), now.getMonth(), 8);
    while (tuesday.getDay() !== 2) tuesday = plusDays(tuesday, 1);
    const wednesday = plusDays(tuesday, 1);

    await openCalendar(a!, group, calendar);
    await a!.getByText("Found 0 events").waitFor();
    // Week numbers in the month view; the mini month beside it.
    expect(await main(a!).locator(".fc-daygrid-week-number").count()).toBeGreaterThan(3);
    await a!.locator("[data-calendar-mini] .fc-daygrid-day").first().waitFor();

    // Selecting Tuesday to Wednesday opens the editor with those days; a calendar's card needs a title.
    await drag(a!, await centre(cell(a!, tuesday)), cell(a!, wednesday));
    expect(await editor(a!).getByLabel("Event start").inputValue()).toBe(`${day(tuesday)}T00:00`);
    expect(await editor(a!).getByLabel("Event end").inputValue()).toBe(`${day(plusDays(tuesday, 2))}T00:00`);
    await editor(a!).getByRole("button", { name: "Save" }).click();
    await editor(a!).getByText("Title needs a value.").waitFor();
    const title = `Klausur ${tag}`;
    await editor(a!).getByLabel("Title").fill(title);
    await editor(a!).getByLabel("Content").fill("Raum 3, mit Beamer");
    await editor(a!).getByRole("button", { name: "Save" }).click();
    await editor(a!).waitFor({ state: "detached", timeout: 60_000 });
    await event(a!, title).waitFor({ timeout: 30_000 });
    await a!.getByText("Found 1 event").waitFor();

    // Dragged a week later: shown there at once, saved through the multipatch, there after a reload.
    const saved = a!.waitForResponse((r) => r.url().includes("/api/motes/multipatch") && r.request().method() === "PATCH");
    await drag(a!, await centre(event(a!, title)), cell(a!, plusDays(tuesday, 7)));
    expect((await saved).status()).toBe(200);
    await openCalendar(a!, group, calendar);
    await cell(a!, plusDays(tuesday, 7)).locator(".fc-event").filter({ hasText: title }).waitFor({ timeout: 30_000 });
    expect(await times(a!, title)).toEqual([`${day(plusDays(tuesday, 7))}T00:00`, `${day(plusDays(tuesday, 9))}T00:00`]);

    // Resizing is not tested here: in the month view FullCalendar offers no resize handle on timed
    // events (all of this page's events are timed); the week view's handle is left for a next step.

    // A move the server refuses goes back, with the spec's text.
    await a!.route("**/api/motes/multipatch", (route) => route.fulfill({ status: 403, contentType: "application/json", body: JSON.stringify({ code: "forbidden", message: "English text the SPA never shows" }) }));
    await drag(a!, await centre(event(a!, title)), cell(a!, plusDays(tuesday, 14)));
    await a!.getByRole("alert").getByText("You are not allowed to alter this page!").waitFor();
    await cell(a!, plusDays(tuesday, 7)).locator(".fc-event").filter({ hasText: title }).waitFor();
    expect(await cell(a!, plusDays(tuesday, 14)).locator(".fc-event").filter({ hasText: title }).count()).toBe(0);
    await a!.unroute("**/api/motes/multipatch");

    // The week view: 24-hour times.
    await main(a!).getByRole("button", { name: "Week" }).click();
    await main(a!).locator(".fc-timegrid-slot-label").filter({ hasText: "13:00" }).first().waitFor();

    // Ben may only read: the event and its viewer, no Edit, nothing to drag, no create.
    await openCalendar(b!, group, calendar);
    await event(b!, title).waitFor({ timeout: 30_000 });
    expect(await event(b!, title).evaluate((el) => el.classList.contains("fc-event-draggable"))).toBe(false);
    expect(await b!.getByRole("button", { name: "Create new card" }).count()).toBe(0);
    await event(b!, title).click();
    const viewer = b!.getByRole("dialog");
    await viewer.getByText("Raum 3, mit Beamer").waitFor();
    expect(await viewer.getByRole("button", { name: "Edit" }).count()).toBe(0);
    await b!.keyboard.press("Escape");
    await viewer.waitFor({ state: "detached" });

    // The mini month moves the main calendar: a day of next month.
    const next = new Date(now.getFullYear(), now.getMonth() + 1, 15);
    await b!.locator("[data-calendar-mini]").getByRole("button", { name: "Next" }).click();
    await b!.locator(`[data-calendar-mini] td.fc-daygrid-day[data-date="${day(next)}"]`).click();
    await cell(b!, next).waitFor();
    await b!.getByText("Found 0 events").waitFor();
  });
});
