import { InfiniteQueryObserver, QueryClient } from "@tanstack/react-query";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { GuestKeys } from "../../lib/guest";
import { queryKeys } from "../../lib/query-keys";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { confirmMigration, conversationHistory, conversationMessagesQuery, fetchMessagePage } from "./load-conversation";
import { startFetchedAhead } from "./older-pages";
import { stopAhead } from "./pages-ahead";
import { migrate } from "./signed-changes";

/**
 * The history's paging against a server of TOTAL messages (ids 1…TOTAL, pages of 50): which pages
 * are asked for, when, and what the list gets. Keys and decryption are stand-ins; the query
 * function, the pages fetched ahead and the joining are the screen's own.
 */
const TOTAL = 1000;
const PAGE = 50;
const asked: string[] = [];
/** The pages the stand-in server has answered (a page is "in" once answered and decrypted). */
const answered: string[] = [];
/** While set, the stand-in server answers this page only when `until` resolves. */
let holding: { page: string; until: Promise<void> } | null = null;

vi.mock("../../lib/api", () => ({
  isApiError: (error: unknown, status?: number) => (error as { status?: number } | null)?.status === status,
  call: async (_route: string, { query }: { query: { before?: number; meta?: string } }) => {
    const page = query.meta ? "newest" : String(query.before);
    asked.push(page);
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (holding?.page === page) await holding.until;
    answered.push(page);
    const below = query.before ?? TOTAL + 1;
    const first = Math.max(1, below - PAGE);
    const motes = Array.from({ length: below - first }, (_, i) => ({ id: first + i, source_id: 3, timestamp: first + i, payload: "", localid: null, epoch: null, signature: null, sender_key_id: null }));
    const meta = query.meta ? { id: 9, title: null, author_id: 3, recipient_id: 4, participants: [] } : undefined;
    return { protocol: 1, epoch: 0, needs_rekey: false, sealed: "sealed", participants: [], attrib: {}, motes, more: first > 1, meta };
  },
}));
vi.mock("./conversation-crypto", () => ({ openConversationKey: async () => ({}), decryptTitle: async () => null }));
/** While set, decrypting waits for it (a page whose decryption takes its time). */
let decrypting: Promise<void> | null = null;
vi.mock("./message-crypto", () => ({
  openMessage: async (_key: unknown, _id: number, mote: { id: number }) => {
    await decrypting;
    return { text: `message ${mote.id}` };
  },
}));
vi.mock("./conversation-log", () => ({ hasRing: () => false, fetchLog: vi.fn(), forgetRing: vi.fn(), currentRing: vi.fn() }));
vi.mock("./signed-changes", () => ({ migrate: vi.fn(), rekeySigned: vi.fn() }));

const guest = { uid: 0, conversationId: 9, pickup: {} } as unknown as GuestKeys;

/** The history as the screen holds it, paged back by the list; `settled` waits for the pages fetched ahead. */
async function history() {
  const client = new QueryClient();
  const observer = new InfiniteQueryObserver(client, conversationMessagesQuery(9, guest));
  const unsubscribe = observer.subscribe(() => undefined);
  const settled = () => vi.waitFor(() => expect(client.isFetching()).toBe(0), { timeout: 5_000, interval: 5 });
  await settled();
  /** The ids the list holds, in order. */
  const held = () => observer.getCurrentResult().data!.pages.flatMap((p) => p.messages.map((m) => m.id!)).sort((a, b) => a - b);
  /** The list pages back once (what scrolling to the top does). */
  const pageBack = () => observer.fetchNextPage();
  const ahead = () => client.getQueryCache().findAll({ queryKey: queryKeys.conversations.olderPages(9) }).length;
  return { client, held, pageBack, settled, ahead, unsubscribe };
}

describe("conversation history: pages fetched ahead of the list (issue 9)", () => {
  beforeEach(() => {
    asked.length = 0;
    answered.length = 0;
    holding = null;
  });

  it("opens with the newest page only, and a first look back fetches two pages ahead", async () => {
    const h = await history();
    expect(asked).toEqual(["newest"]);
    await h.pageBack();
    await h.settled();
    // The page asked for, then two ahead, each below the one before.
    expect(asked).toEqual(["newest", "951", "901", "851"]);
    expect(h.held()).toHaveLength(100);
    expect(h.ahead()).toBe(2);
    h.unsubscribe();
  });

  it("joins the pages in already to the one asked for, in id order, and looks further ahead the further back the user goes", async () => {
    const h = await history();
    await h.pageBack();
    await h.settled();
    // Two pages in already: the list takes both at once, and as many messages as it holds (200) are fetched ahead.
    await h.pageBack();
    expect(h.held()).toEqual(Array.from({ length: 200 }, (_, i) => 801 + i));
    await h.settled();
    expect(h.ahead()).toBe(4);
    await h.pageBack();
    await h.settled();
    expect(h.held()).toHaveLength(400);
    expect(h.ahead()).toBe(8);
    h.unsubscribe();
  });

  it("asks for the next page ahead as soon as an answer is in, before that page is decrypted", async () => {
    const h = await history();
    let release = () => undefined as void;
    decrypting = new Promise((resolve) => (release = resolve));
    const paged = h.pageBack();
    // The page asked for and both pages ahead are requested while nothing of them has opened.
    await vi.waitFor(() => expect(asked).toEqual(["newest", "951", "901", "851"]), { timeout: 5_000, interval: 5 });
    expect(h.held()).toHaveLength(50);
    // All three answered (on a busy machine the last answer can come after the first is decrypted): then they decrypt.
    await vi.waitFor(() => expect(answered).toHaveLength(4), { timeout: 5_000, interval: 5 });
    decrypting = null;
    release();
    await paged;
    await h.settled();
    // All three opened at once: the list takes them together, and looks as far ahead as it holds.
    expect(h.held()).toHaveLength(200);
    expect(asked).toEqual(["newest", "951", "901", "851", "801", "751", "701", "651"]);
    expect(h.ahead()).toBe(4);
    h.unsubscribe();
  });

  it("asks for no page further once the screen has closed, after the page on its way: neither the chain nor the look back that waits for that page", async () => {
    const h = await history();
    let release = () => undefined as void;
    holding = { page: "901", until: new Promise((resolve) => (release = resolve)) };
    void h.pageBack();
    await vi.waitFor(() => expect(asked).toEqual(["newest", "951", "901"]), { timeout: 5_000, interval: 5 });
    // The screen closes (usePagesAhead's cleanup, then its query's observer goes) while "901" is on its way.
    stopAhead(conversationHistory(9, guest).route.key);
    h.unsubscribe();
    release();
    await vi.waitFor(() => expect(answered).toContain("901"), { timeout: 5_000, interval: 5 });
    await h.settled();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toEqual(["newest", "951", "901"]);
  });

  it("fetches every page once, and none past the start", async () => {
    const h = await history();
    // Whether the start of the history was said to be in, fetched ahead, before each look back.
    const startAhead: boolean[] = [];
    while (h.held().length < TOTAL) {
      startAhead.push(startFetchedAhead(h.client, conversationHistory(9, guest)));
      await h.pageBack();
      await h.settled();
    }
    // Said once its page was in and not yet taken (the last look back), never before, not after.
    expect(startAhead.indexOf(true)).toBe(startAhead.length - 1);
    expect(startFetchedAhead(h.client, conversationHistory(9, guest))).toBe(false);
    const pages = ["newest", ...Array.from({ length: TOTAL / PAGE - 1 }, (_, i) => String(TOTAL + 1 - (i + 1) * PAGE))];
    expect(asked).toEqual(pages);
    expect(h.held()).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    expect(h.ahead()).toBe(0);
    h.unsubscribe();
  });
});

describe("a version 1 conversation's migration waits for its member's word (issue 11)", () => {
  // Its author (3, as the stand-in server says) with account keys: one who may migrate it.
  const author = { uid: 3, keys: {} } as unknown as UnlockedKeys;

  it("opens as before and says what the migration would sign, signing nothing", async () => {
    vi.mocked(migrate).mockClear();
    const page = await fetchMessagePage(9, author, { meta: "1" });
    expect(page.head?.migration).toEqual({ sealed: "sealed", participants: [] });
    expect(page.head?.keys.protocol).toBe(1);
    expect(migrate).not.toHaveBeenCalled();
  });

  it("signs the people shown when they are confirmed; another client having been faster (409) is no failure", async () => {
    vi.mocked(migrate).mockClear();
    const shown = { sealed: "sealed", participants: [{ user_id: 3, admin: false }, { user_id: 4, admin: false }] };
    await confirmMigration(9, author, shown);
    expect(migrate).toHaveBeenCalledWith(9, author, "sealed", shown.participants);
    vi.mocked(migrate).mockRejectedValueOnce(Object.assign(new Error("conflict"), { status: 409 }));
    await expect(confirmMigration(9, author, shown)).resolves.toBeUndefined();
    vi.mocked(migrate).mockRejectedValueOnce(Object.assign(new Error("untrusted"), { status: 0 }));
    await expect(confirmMigration(9, author, shown)).rejects.toThrow("untrusted");
  });
});
