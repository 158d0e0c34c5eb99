/**
 * The chain of older pages fetched ahead of a history (issue 9; a conversation's or a group's):
 * each request goes out as soon as the answer before it is in, since its cursor is that answer's
 * oldest id. The loop is the same in the page-chain worker (page-chain.worker.ts) and, where no
 * worker runs, on the page's thread (pages-ahead.ts). Nothing imported: the worker bundles this
 * module alone.
 */

/** What a chain reads of a page as the server answers it (`GET /api/conversations/{id}`, `GET /api/groups/{id}/conversation`). */
export interface ChainPage {
  motes: readonly { id: number }[];
  more: boolean;
}

/**
 * At least this many pages ahead; while the user keeps paging back, as many messages as the
 * history holds already, so the chain runs on without a pause and what is fetched and not yet
 * looked at stays below what has been (at most twice the history in memory). A glance back
 * fetches two pages.
 */
export const PAGES_AHEAD = 2;

/** Where the pages below a page start: its oldest id, whether there are any, and how many messages it has. */
export interface Below {
  before: number | null;
  more: boolean;
  count: number;
}

export const belowAnswer = (answer: ChainPage): Below => ({
  before: answer.motes.reduce<number | null>((min, m) => (min === null || m.id < min ? m.id : min), null),
  more: answer.more,
  count: answer.motes.length,
});

/** How far a chain has come: pages and messages ahead so far, against the messages the history holds. */
export interface Budget {
  ahead: number;
  messages: number;
  held: number;
}

/** The cursor of the next page ahead, or null where the chain ends (budget spent, or no older page). */
export function nextAhead(budget: Budget, below: Below): number | null {
  return (budget.ahead < PAGES_AHEAD || budget.messages < budget.held) && below.more ? below.before : null;
}

/**
 * Where a chain starts, and its budget as it goes: the chain counts in it, and `held` may be raised
 * while it runs (the history took more pages), so a chain runs on while the user pages back rather
 * than ending and waiting for the page to start the next. `asked`: its first page is the one the
 * list asked for, not one ahead (its messages count as held).
 */
export interface ChainStart extends Budget {
  before: number;
  asked?: boolean;
  /** Set while it runs when the screen that wanted its pages closed: it asks for no page further. */
  stopped?: boolean;
}

/** A change to a running chain's budget: the history holds `held` messages now, or its screen closed. */
export type BudgetChange = { held: number } | { stop: true };

export function changeBudget(budget: ChainStart, change: BudgetChange): void {
  if ("stop" in change) budget.stopped = true;
  else budget.held = Math.max(budget.held, change.held);
}

/** One page of a chain, as it is answered: `next` is the page already asked for after it (null: the chain ends). */
export type ChainStep<P extends ChainPage = ChainPage> = { before: number; next: number | null } & ({ answer: P } | { error: unknown });

/**
 * Fetches from `budget.before` down, page after page, while the budget lasts (counted in it; the
 * caller may raise its `held` meanwhile). The next request goes out before the page is reported,
 * so whatever the caller does with a page delays no request. A page that fails ends the chain (the
 * history's own request asks again and reports it), and so does `stopped` (after the page on its way).
 */
export async function chainPages<P extends ChainPage>(fetchPage: (before: number) => Promise<P>, budget: ChainStart, report: (step: ChainStep<P>) => void): Promise<void> {
  let asked = budget.asked ?? false;
  let before = budget.before;
  let loading = fetchPage(before);
  for (;;) {
    let answer: P;
    try {
      answer = await loading;
    } catch (error) {
      report({ before, next: null, error });
      return;
    }
    const below = belowAnswer(answer);
    if (asked) budget.held += below.count;
    else {
      budget.ahead++;
      budget.messages += below.count;
    }
    asked = false;
    const next = budget.stopped ? null : nextAhead(budget, below);
    if (next !== null) loading = fetchPage(next);
    report({ before, next, answer });
    if (next === null) return;
    before = next;
  }
}
