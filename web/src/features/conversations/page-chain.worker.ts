import { networkFailure, readErrorBody } from "../../lib/error-body";
import { type BudgetChange, type ChainStart, type ChainStep, type ChainPage, chainPages, changeBudget } from "./page-chain";

/**
 * The page-chain worker (issue 9): fetches a history's older pages ahead of it (a conversation's, a group's), off
 * the page's thread, so a request goes out as soon as the answer before it is in, however busy the
 * page is drawing. It only fetches: the pages go to the page as the server sent them, and are
 * verified and decrypted there (the keys never come here). Started by pages-ahead.ts.
 */

/** A chain to run: the history's URL (absolute), the session's bearer token, where to start. */
export interface ChainRequest {
  chain: number;
  url: string;
  token: string | null;
  start: ChainStart;
}

/** What the page gets for each page: the step, a failure as lib/error-body.ts reads it (an Error does not cross whole). */
export type ChainReport = { chain: number } & ChainStep;

async function fetchPage({ url, token }: ChainRequest, before: number): Promise<ChainPage> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${url}?before=${before}`, { headers });
  } catch (error) {
    throw networkFailure(error);
  }
  if (!response.ok) throw await readErrorBody(response);
  return (await response.json()) as ChainPage;
}

/**
 * A running chain's budget changes: its history now holds `held` messages, so it may
 * go further; or `stop`: the screen closed, so it goes no further than the page on its way.
 */
export type ChainChange = { chain: number } & BudgetChange;

/** The budgets of the chains running here, by chain. */
const budgets = new Map<number, ChainStart>();

onmessage = ({ data }: MessageEvent<ChainRequest | ChainChange>) => {
  if (!("start" in data)) {
    const budget = budgets.get(data.chain);
    if (budget) changeBudget(budget, data);
    return;
  }
  const { chain, start } = data;
  budgets.set(chain, start);
  void chainPages(
    (before) => fetchPage(data, before),
    start,
    (step) => {
      if (step.next === null) budgets.delete(chain);
      postMessage({ chain, ...step } satisfies ChainReport);
    },
  );
};
