import type { Page } from "playwright-core";
import { expect } from "vitest";
import { http } from "../support/api";
import { TEST_CODE } from "../support/keys";
import { gotoApp } from "../e2e/helpers";
import type { MaliciousSuite, Run } from "./harness";
import { aliceAndBob, conversationWith, heading, messageList, noTrustWarning, send, signInAs, trustWarning } from "./scenes";

/**
 * Things swapped between containers (issue 11, item 6), against signed conversations (protocol
 * v2, docs/protocol.md §14.8): X's answers carry what belongs to conversation Y. Every
 * conversation made in the product today is a signed one; what a v2 answer carries is the log,
 * each epoch's record, one's signed copy, the title and the messages, so that is what is swapped.
 * (Pickups keep version 1's copies, bound to the conversation id by the crypto package: §8.)
 */

const TITLE_X = "X: lunch on Friday";
const TITLE_Y = "Y: salaries 2027";
const SECRET_Y = "Y: everyone gets 3 % more";

/** GET /api/conversations/{id}/log as the server holds it. */
type LogAnswer = Record<string, unknown>;
interface PageAnswer {
  meta: { id: number; title: string | null } & Record<string, unknown>;
  motes: unknown[];
}

/**
 * Alice starts X and Y with Bob in her browser (so the run's client makes and signs them) and
 * writes in Y; answers what the server holds of Y: its log answer and its first page for her.
 */
async function twoConversations(run: Run): Promise<{ page: Page; x: number; yLog: LogAnswer; yPage: PageAnswer }> {
  const { alice, bob } = await aliceAndBob();
  const page = await run.visitor();
  await signInAs(page, alice);
  const x = await conversationWith(page, bob.email, TITLE_X);
  const y = await conversationWith(page, bob.email, TITLE_Y);
  await send(page, SECRET_Y);
  const token = alice.session.api_token;
  const [yLog, yPage] = await Promise.all([http<LogAnswer>("GET", `/api/conversations/${y}/log`, { token }), http<PageAnswer>("GET", `/api/conversations/${y}?meta=1`, { token })]);
  return { page, x, yLog: yLog.body, yPage: yPage.body };
}

export function containerAttacks(suite: MaliciousSuite): void {
  suite.attack("key and title swapped between conversations: X's answers carry Y's log, records, signed copy, title and messages", {
    check: "container-binding",
    timeout: 300_000,
    async mount(run) {
      const { page, x, yLog, yPage } = await twoConversations(run);
      // Everything Y's is validly signed, by Alice herself: only the conversation it is for differs.
      const lie = run.proxy.lie("GET", `/api/conversations/${x}/log`, () => yLog);
      run.proxy.lie("GET", `/api/conversations/${x}`, (answer: PageAnswer, exchange) => (exchange.query.get("meta") === "1" ? { ...yPage, meta: { ...yPage.meta, id: x } } : answer));
      await gotoApp(page, `/conversation/${x}`, TEST_CODE);
      return { page, lie, x };
    },
    async refused({ page, lie }) {
      // Y's log names Y's container in every signed entry: not X's history, refused as a whole.
      const warning = trustWarning(page, "log_invalid");
      await warning.waitFor({ timeout: 30_000 });
      expect(await warning.textContent()).toContain("The history of this conversation's members does not verify");
      expect(lie.hits).toBeGreaterThan(0);
      expect(await messageList(page).count()).toBe(0);
      // (Y's title is in the menu's list of conversations, under Y, as it should be.)
      expect(await heading(page).textContent()).not.toContain(TITLE_Y);
      expect(await page.locator("body").textContent()).not.toContain(SECRET_Y);
    },
    async works({ page, lie, x }) {
      // Verified as the conversation its log names, Y opens at X's address: Y's title and messages.
      await expect.poll(() => heading(page).textContent()).toBe(TITLE_Y);
      await messageList(page).getByText(SECRET_Y, { exact: true }).waitFor({ timeout: 30_000 });
      expect(new URL(page.url()).pathname).toBe(`/conversation/${x}`);
      expect(lie.hits).toBeGreaterThan(0);
      await noTrustWarning(page);
    },
  });

  // No switch makes this one work: Y's title is under Y's key, which X's does not open. What the
  // client must do is say so rather than show the names as if X had no title.
  suite.refusal(
    "a title swapped alone (X's answer carries Y's title, its own log and key): an error, not silence",
    async (run) => {
      const { page, x, yPage } = await twoConversations(run);
      const lie = run.proxy.lie("GET", `/api/conversations/${x}`, (answer: PageAnswer) => (answer.meta ? { ...answer, meta: { ...answer.meta, title: yPage.meta.title } } : answer));
      await gotoApp(page, `/conversation/${x}`, TEST_CODE);
      const alert = page.locator("[data-title-error]");
      await alert.waitFor();
      expect(await alert.textContent()).toContain("The title of this conversation does not open: it belongs to another conversation or was changed on its way.");
      expect(lie.hits).toBeGreaterThan(0);
      expect(await heading(page).textContent()).toBe("Invited Person");
    },
    300_000,
  );
}
