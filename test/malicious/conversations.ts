import type { Page } from "playwright-core";
import { expect } from "vitest";
import { http } from "../support/api";
import type { Member } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { errorDialogText, gotoApp } from "../e2e/helpers";
import type { MaliciousSuite, Run } from "./harness";
import { aliceAndBob, conversationWith, signInAs } from "./scenes";

/** Things swapped between containers (issue 11, item 6): a conversation's answer carries another conversation's key copy or title. */

const TITLE_X = "X: lunch on Friday";
const TITLE_Y = "Y: salaries 2027";

interface Answer {
  sealed: string;
  meta: { id: number; title: string | null; sealed: string | null };
}

/** Alice starts X and Y with Bob in her browser (so the run's client seals them); answers Y's answer as the server holds it. */
async function twoConversations(run: Run): Promise<{ page: Page; alice: Member; x: number; y: Answer }> {
  const { alice, bob } = await aliceAndBob();
  const page = await run.visitor();
  await signInAs(page, alice);
  const x = await conversationWith(page, bob.email, TITLE_X);
  const y = await conversationWith(page, bob.email, TITLE_Y);
  const answer = await http<Answer>("GET", `/api/conversations/${y}?meta=1`, { token: alice.session.api_token });
  return { page, alice, x, y: answer.body };
}

/**
 * A server that lies about X wherever X appears: its page (the key copy every page carries, the
 * title with `meta`) and Alice's list of conversations get Y's key copy and Y's title.
 */
function swapped(x: number, y: Answer) {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== "object" || value === null) return value;
    const entries = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, visit(inner)]));
    return entries.id === x && "sealed" in entries && "title" in entries ? { ...entries, sealed: y.meta.sealed, title: y.meta.title } : entries;
  };
  return (answer: Answer, exchange: { path: string }) => {
    const changed = visit(answer) as Answer;
    return exchange.path === `/api/conversations/${x}` ? { ...changed, sealed: y.sealed } : changed;
  };
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

export function containerAttacks(suite: MaliciousSuite): void {
  suite.attack("key and title swapped between conversations: X's answer carries Y's key copy and Y's title", {
    check: "container-binding",
    timeout: 240_000,
    async mount(run) {
      const { page, x, y } = await twoConversations(run);
      const lie = run.proxy.lie("GET", `/api/conversations/${x}`, swapped(x, y));
      run.proxy.lie("GET", /^\/api\/users\/\d+\/conversations$/, swapped(x, y));
      await gotoApp(page, `/conversation/${x}`, TEST_CODE);
      return { page, lie, x };
    },
    async refused({ page, lie }) {
      // Y's copy does not open as X's key: an error that says so, and nothing of Y in X.
      expect(await errorDialogText(page)).toContain("This conversation's key does not open with your key: the copy the server sent was sealed for another conversation or another key");
      expect(lie.hits).toBeGreaterThan(0);
      expect(await heading(page).textContent()).not.toContain(TITLE_Y);
    },
    async works({ page, lie, x }) {
      // Sealed without the conversation id, Y's key opens in X and X shows Y's title.
      await expect.poll(() => heading(page).textContent()).toBe(TITLE_Y);
      expect(new URL(page.url()).pathname).toBe(`/conversation/${x}`);
      expect(lie.hits).toBeGreaterThan(0);
      expect(await page.getByRole("dialog", { name: "Error" }).count()).toBe(0);
    },
  });

  // No switch makes this one work: Y's title is under Y's key, which X's does not open. What the
  // client must do is say so rather than show the names as if X had no title.
  suite.refusal("a title swapped alone (X's answer carries Y's title, its own key): an error, not silence", async (run) => {
    const { page, x, y } = await twoConversations(run);
    const lie = run.proxy.lie("GET", `/api/conversations/${x}`, (answer: Answer) => ({ ...answer, meta: { ...answer.meta, title: y.meta.title } }));
    await gotoApp(page, `/conversation/${x}`, TEST_CODE);
    const alert = page.locator("[data-title-error]");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("The title of this conversation does not open: it belongs to another conversation or was changed on its way.");
    expect(lie.hits).toBeGreaterThan(0);
    expect(await heading(page).textContent()).toBe("Invited Person");
  }, 240_000);
}
