import { API_URL, answerFailed } from "../../lib/api";
import type { ErrorBody } from "../../lib/error-body";
import { getSession } from "../../lib/session";
import { workerScriptUrl } from "../../lib/worker-scripts";
import { type BudgetChange, type ChainPage, type ChainStart, type ChainStep, chainPages, changeBudget } from "./page-chain";
import type { ChainChange, ChainReport, ChainRequest } from "./page-chain.worker";
import pageChainWorker from "./page-chain.worker?worker&url";

/**
 * Where a history's chains go: `key` names the history (raiseAhead, stopAhead), `path` is its route
 * (the worker asks `path?before=…`), `fetchHere` the same request on the page's thread.
 */
export interface AheadRoute<P extends ChainPage> {
  key: string;
  path: string;
  fetchHere(before: number): Promise<P>;
}

/**
 * Runs a chain of older pages (page-chain.ts) in the page-chain worker, or on the page's thread
 * where no worker can start (no Worker, or one refused): the same loop either way. `asked` hears
 * of every page as it is asked for, with its answer to come.
 *
 * In the worker, the chain's requests wait for nothing the page does: on this thread an answer
 * that arrives while the page draws is taken up only after the frame, and the next request with
 * it (issue 9: this was what still made scrolling back slower than fetching and decrypting).
 */
export function chainAhead<P extends ChainPage>(route: AheadRoute<P>, start: ChainStart, asked: (before: number, answer: Promise<P>) => void): void {
  const waiting = new Map<number, { resolve(page: P | Promise<P>): void; reject(error: unknown): void }>();
  const ask = (before: number) => asked(before, new Promise((resolve, reject) => waiting.set(before, { resolve, reject })));
  ask(start.before);
  const chain = ++chains;
  const worker = chainWorker();
  const run: Running = {
    key: route.key,
    step(s) {
      if (s.next === null) running.delete(chain);
      // The next page is on its way before this one is reported: its answer is known to come.
      else ask(s.next);
      const page = waiting.get(s.before)!;
      waiting.delete(s.before);
      // (The worker answers what the route's server sent: the route's own page.)
      if ("answer" in s) page.resolve(s.answer as P);
      else page.reject(s.error);
    },
    fallBack() {
      for (const [before, page] of waiting) page.resolve(route.fetchHere(before));
      waiting.clear();
    },
    change(change) {
      if (worker) worker.postMessage({ chain, ...change } satisfies ChainChange);
      else changeBudget(start, change);
    },
  };
  running.set(chain, run);
  if (!worker) {
    void chainPages((before) => route.fetchHere(before), start, run.step);
    return;
  }
  const url = new URL(`${API_URL}${route.path}`, location.href).href;
  run.token = getSession()?.api_token;
  worker.postMessage({ chain, url, token: run.token ?? null, start } satisfies ChainRequest);
}

/** The history `key` holds `held` messages now: its chains under way may run on that far ahead. */
export function raiseAhead(key: string, held: number): void {
  for (const run of running.values()) if (run.key === key) run.change({ held });
}

/** The screen of the history `key` closed: its chains under way ask for no page further than the ones on their way. */
export function stopAhead(key: string): void {
  for (const run of running.values()) if (run.key === key) run.change({ stop: true });
}

/** Starts the page-chain worker, if it is not running yet, so that the first chain does not wait for its script. */
export function startPagesAhead(): void {
  chainWorker();
}

interface Running {
  key: string;
  /** The token the worker's requests carry: a 401 to them ends the session as one to the page's would (lib/api.ts). */
  token?: string;
  step(step: ChainStep): void;
  /** The worker stopped: the pages it was to fetch are fetched here (the chain ends with them). */
  fallBack(): void;
  change(change: BudgetChange): void;
}

let chains = 0;
/** The chains under way: where each one's pages go, how its budget grows. */
const running = new Map<number, Running>();
/** The worker, once started (null: none could start, so chains run here). */
let worker: Worker | null | undefined;

function chainWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(workerScriptUrl(pageChainWorker), { type: "module", name: "page-chain" });
  } catch (error) {
    console.warn("older pages are fetched on the page's thread: no worker", error);
    return (worker = null);
  }
  worker.onmessage = ({ data }: MessageEvent<ChainReport>) => {
    const { chain, ...s } = data;
    const run = running.get(chain);
    if (!run) return;
    run.step("error" in s ? { ...s, error: answerFailed(s.error as ErrorBody, run.token) } : s);
  };
  // A worker that did not load (or broke): the pages it was fetching are fetched here, and later
  // chains run here.
  worker.onerror = (event) => {
    event.preventDefault();
    console.warn("the page-chain worker stopped; older pages are fetched on the page's thread", event.message);
    worker?.terminate();
    worker = null;
    for (const run of running.values()) run.fallBack();
    running.clear();
  };
  return worker;
}
