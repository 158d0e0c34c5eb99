import type { Attribution } from "@sealwork/contracts";
import { type QueryClient, type QueryKey, queryOptions, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { type ShownMessage, oldestId } from "./message-state";
import { type Below, type ChainPage, type ChainStart, nextAhead } from "./page-chain";
import { type AheadRoute, chainAhead, raiseAhead, startPagesAhead, stopAhead } from "./pages-ahead";

/**
 * Paging back through a history with older pages fetched ahead of the list (issue 9): a
 * conversation's (load-conversation.ts) and the group conversation's (groups/conversation). The
 * pages ahead are queries of their own, by `before` cursor, until the history takes them in.
 */

/** A decrypted page of a history: its messages in id order, whether older ones follow, who wrote them. */
export interface HistoryPage {
  messages: ShownMessage<unknown>[];
  more: boolean;
  attrib: Attribution;
}

/**
 * A history that pages back: where its chains go (`route`, the server's page `A`), its infinite
 * query's key, its pages ahead's keys, and how one older page is fetched (or taken from `loaded`,
 * an answer a chain asked for already) and decrypted into its page `P`.
 */
export interface OlderHistory<P extends HistoryPage, A extends ChainPage> {
  route: AheadRoute<A>;
  historyKey: QueryKey;
  /** The prefix of every page ahead's key. */
  olderPagesKey: QueryKey;
  olderPageKey(before: number): QueryKey;
  open(before: number, signal: AbortSignal | undefined, loaded?: Promise<A>): Promise<P>;
}

/** One older page on its own: a page fetched ahead, or still on its way, is taken up by the history from here. */
const olderPageQuery = <P extends HistoryPage, A extends ChainPage>(history: OlderHistory<P, A>, before: number, loaded?: Promise<A>) =>
  queryOptions({
    queryKey: history.olderPageKey(before),
    queryFn: ({ signal }) => history.open(before, signal, loaded),
    staleTime: Infinity,
    // Taken out as soon as the history holds it; this bounds only pages left ahead when the screen closed.
    gcTime: 60_000,
    retry: false,
  });

/** Whether a screen shows the history (observes its query): once it closes, no chain starts for it. */
const shown = <P extends HistoryPage, A extends ChainPage>(client: QueryClient, history: OlderHistory<P, A>): boolean =>
  (client.getQueryCache().find({ queryKey: history.historyKey, exact: true })?.getObserversCount() ?? 0) > 0;

const belowPage = (page: HistoryPage): Below => ({ before: oldestId(page.messages), more: page.more, count: page.messages.length });

/**
 * Starts a chain of pages from `start` (page-chain.ts; in the worker where one runs): each page,
 * as it is asked for, goes into the cache and is decrypted as soon as its answer is in.
 */
function chainFrom<P extends HistoryPage, A extends ChainPage>(client: QueryClient, history: OlderHistory<P, A>, start: ChainStart): void {
  chainAhead(history.route, start, (before, loaded) => void client.prefetchQuery(olderPageQuery(history, before, loaded)));
}

/**
 * Once the user pages back, older pages are fetched ahead of the list: PAGES_AHEAD, or as many
 * messages as `held` if more (page-chain.ts), so scrolling on waits neither for a request that
 * starts only when the view nears the oldest message held, nor for the frame that draws the last
 * page, nor for the decryption of the page before. Pages in already, or on their way in a chain
 * started earlier, are walked through, not fetched again; where they end, a chain goes on.
 */
async function fetchAhead<P extends HistoryPage, A extends ChainPage>(client: QueryClient, history: OlderHistory<P, A>, below: Below, held: number): Promise<void> {
  const budget = { ahead: 0, messages: 0, held };
  for (let before = nextAhead(budget, below); before !== null; before = nextAhead(budget, below)) {
    // The screen closed while a page walked through was on its way (its chain stopped there): no new chain.
    if (!shown(client, history)) return;
    if (!client.getQueryState(history.olderPageKey(before))) return chainFrom(client, history, { before, ...budget });
    // In already, or on its way: joined (a page that failed stays out of the chain: the history's
    // own request asks again and reports it).
    const page = await client.fetchQuery(olderPageQuery(history, before)).catch(() => null);
    if (!page) return;
    below = belowPage(page);
    budget.ahead++;
    budget.messages += below.count;
  }
}

/**
 * The history's query function for an older page: the page below `before`, fetched ahead or now,
 * with the pages below it that are in already (the list then draws them in one go rather than one
 * frame each), and the pages ahead of those started (by the chain that asks for it, when it is
 * asked for here).
 */
export async function olderPages<P extends HistoryPage, A extends ChainPage>(client: QueryClient, history: OlderHistory<P, A>, before: number): Promise<P> {
  const held = (client.getQueryData<{ pages: P[] }>(history.historyKey)?.pages ?? []).reduce((n, p) => n + p.messages.length, 0);
  const options = olderPageQuery(history, before);
  // Neither in nor on its way: a chain asks for it, and goes on ahead from its answer.
  if (!client.getQueryState(options.queryKey)) chainFrom(client, history, { before, ahead: 0, messages: 0, held, asked: true });
  let page: P;
  try {
    page = await client.fetchQuery(options);
  } finally {
    // The history holds it from now on (or reports its failure); a later request asks the server again.
    client.removeQueries({ queryKey: options.queryKey, exact: true });
  }
  for (let below = oldestId(page.messages); page.more && below !== null; below = oldestId(page.messages)) {
    const key = history.olderPageKey(below);
    const next = client.getQueryData<P>(key);
    if (!next) break;
    client.removeQueries({ queryKey: key, exact: true });
    // The older page answered later: its view of who takes part (and of the keys) is the newer one.
    page = { ...next, messages: [...next.messages, ...page.messages], attrib: { ...page.attrib, ...next.attrib } };
  }
  // The chains under way may run that much further; beyond the pages joined, the pages on their way
  // are walked through, and a chain goes on where they end.
  raiseAhead(history.route.key, held + page.messages.length);
  void fetchAhead(client, history, belowPage(page), held + page.messages.length);
  return page;
}

/**
 * What the history's query function does before it asks for the newest page: pages an earlier
 * visit left ahead answered before this one and are not reused; the worker that will fetch the
 * older pages starts while the newest comes (its script, at a user's round trip, would otherwise
 * delay the first page back by a round trip or more).
 */
export function newVisit<P extends HistoryPage, A extends ChainPage>(client: QueryClient, history: OlderHistory<P, A>): void {
  client.removeQueries({ queryKey: history.olderPagesKey });
  startPagesAhead();
}

/**
 * Whether the history's first message is in, on a page fetched ahead and not yet taken into the
 * history: nothing is left to fetch, so the list may take it at once (message-list.tsx).
 */
export function startFetchedAhead<P extends HistoryPage, A extends ChainPage>(client: QueryClient, history: OlderHistory<P, A>): boolean {
  return client.getQueriesData<P>({ queryKey: history.olderPagesKey }).some(([, page]) => page?.more === false);
}

/**
 * For the screen that shows the history: whether its first message is in, ahead (startFetchedAhead,
 * for the list's `startAhead`); and, when it closes, its chains end with the pages on their way.
 */
export function usePagesAhead<P extends HistoryPage, A extends ChainPage>(history: OlderHistory<P, A>): boolean {
  const client = useQueryClient();
  const key = history.route.key;
  useEffect(() => () => stopAhead(key), [key]);
  return useSyncExternalStore(
    useCallback((changed: () => void) => client.getQueryCache().subscribe(changed), [client]),
    () => startFetchedAhead(client, history),
  );
}
