import { type AccountKeys, accountDataMark, generateAccountKeys, openAccountData, sealAccountData } from "@sealwork/crypto";
import type { PinBook } from "./pins";
import { describe, expect, it, vi } from "vitest";

// The pins are saved to a fake server; the book is checked as the client opens it. This browser's
// storage is a map; texts are their keys.
const server = vi.hoisted(() => ({ pins: { data: null as string | null, rev: 0 } }));
const store = vi.hoisted(() => new Map<string, string>());
vi.stubGlobal("localStorage", {
  getItem: (key: string) => store.get(key) ?? null,
  setItem: (key: string, value: string) => void store.set(key, value),
  removeItem: (key: string) => void store.delete(key),
});
vi.mock("./i18n", () => ({ i18next: { t: (key: string) => key } }));
vi.mock("./api", () => ({
  isApiError: (error: unknown, status?: number) => (error as { status?: number })?.status === status,
  call: vi.fn(async (key: string, options: { body?: { data: string; rev: number } } = {}) => {
    if (key === "GET /api/identities/pins") return { ...server.pins };
    if (key === "PUT /api/identities/pins") {
      server.pins = { data: options.body!.data, rev: server.pins.rev + 1 };
      return { rev: server.pins.rev };
    }
    throw new Error(`unexpected call ${key}`);
  }),
}));

const { LINE_MAX, PinsRefusedError, acceptServerPins, forgetPins, pinBook, rememberHead, rememberedHead, resealPins, updatePins } = await import("./pins");

/** What the next load of the pins in this browser answers: the book, or the refusal's reason. */
async function loadAfresh(holder: { uid: number; keys: AccountKeys }): Promise<PinBook | string> {
  forgetPins();
  try {
    return await pinBook(holder);
  } catch (error) {
    if (error instanceof PinsRefusedError) return error.reason;
    throw error;
  }
}

const hash = (c: string) => c.repeat(43);

describe("remembered log heads (protocol v2, kept with the encrypted pins)", () => {
  it("are saved encrypted, move only forward, and a second browser has them", async () => {
    const keys = await generateAccountKeys();
    const holder = { uid: 7, keys };
    expect(await rememberedHead(holder, 42)).toBeUndefined();
    await rememberHead(holder, 42, { seq: 2, hash: hash("a") });
    await rememberHead(holder, 42, { seq: 4, hash: hash("b") });
    // An older head (another window verified a longer log meanwhile) changes nothing.
    await rememberHead(holder, 42, { seq: 3, hash: hash("c") });
    expect(await rememberedHead(holder, 42)).toEqual({ seq: 4, hash: hash("b") });
    expect(server.pins.data).not.toContain(hash("b"));
    const opened = (await openAccountData(keys, { userId: 7, kind: "pins" }, server.pins.data!)) as { heads: Record<string, unknown> };
    expect(opened.heads).toEqual({ "42": { seq: 4, hash: hash("b") } });
    // Another browser of the same user loads the book afresh.
    forgetPins();
    expect((await pinBook(holder)).heads["42"]).toEqual({ seq: 4, hash: hash("b") });
  });
});

describe("the instance anchors this browser pinned (docs/protocol.md §14.10: the server withholds or spoils the pins)", () => {
  const root = "AAECAwQFBgcICQoLDA0ODw";

  it("stay for a book this browser never saw (another user, a key made anew); a browser that pinned none has none", async () => {
    store.clear();
    const holder = { uid: 8, keys: await generateAccountKeys() };
    server.pins = { data: null, rev: 0 };
    forgetPins();
    expect((await pinBook(holder)).anchors).toEqual([]);
    await updatePins(holder, (book) => ({ ...book, anchors: [root] }));
    expect(store.get("sealwork.trust.anchors")).toBe(JSON.stringify([root]));
    const saved = { ...server.pins };

    // The server answers no book: another user's first sign-in here starts from the anchors this browser pinned.
    server.pins = { data: null, rev: 5 };
    expect(await loadAfresh({ uid: 9, keys: await generateAccountKeys() })).toMatchObject({ anchors: [root], pins: {}, saves: 0 });
    // Bytes that do not open with the user's key (an administrator reset it: a key made anew): the same.
    server.pins = saved;
    expect(await loadAfresh({ uid: 8, keys: await generateAccountKeys() })).toMatchObject({ anchors: [root], heads: {} });

    // Another browser (nothing stored) takes what the server shows at first use, as before.
    store.clear();
    server.pins = { data: null, rev: 6 };
    expect(await loadAfresh(holder)).toMatchObject({ anchors: [] });
  });
});

describe("the count of the book's saves (docs/protocol.md §14.10: the server replays or drops the pins)", () => {
  const pin = (keyId: string) => ({ userId: 3, keyId, seq: keyId === "new" ? 1 : 0, verified: true });

  it("is sealed in the book, and a browser refuses a book older than one it saw, or none", async () => {
    store.clear();
    server.pins = { data: null, rev: 0 };
    const holder = { uid: 10, keys: await generateAccountKeys() };
    expect(await loadAfresh(holder)).toMatchObject({ saves: 0 });
    await updatePins(holder, (book) => ({ ...book, pins: { "3": pin("old") } }));
    const older = { ...server.pins };
    await updatePins(holder, (book) => ({ ...book, pins: { "3": pin("new") } }));
    expect(await openAccountData(holder.keys, { userId: 10, kind: "pins" }, server.pins.data!)).toMatchObject({ saves: 2, pins: { "3": pin("new") } });
    const newer = { ...server.pins };

    // The server replays the older book (Bob's older key pinned), drops it, or answers bytes that do not open.
    server.pins = { ...older, rev: 9 };
    expect(await loadAfresh(holder)).toBe("pins_rolled_back");
    await expect(updatePins(holder, (book) => book)).rejects.toBeInstanceOf(PinsRefusedError);
    expect(server.pins.rev).toBe(9);
    server.pins = { data: null, rev: 9 };
    expect(await loadAfresh(holder)).toBe("pins_dropped");
    server.pins = { data: await sealAccountData(await generateAccountKeys(), { userId: 10, kind: "pins" }, { v: 1, anchors: [], pins: {}, saves: 7 }), rev: 9 };
    expect(await loadAfresh(holder)).toBe("pins_dropped");

    // The newest book loads; so does a newer one (the user's other browser saved since).
    server.pins = newer;
    expect(await loadAfresh(holder)).toMatchObject({ saves: 2, pins: { "3": pin("new") } });
    await updatePins(holder, (book) => ({ ...book, pins: { ...book.pins, "4": { ...pin("x"), userId: 4 } } }));
    expect(await loadAfresh(holder)).toMatchObject({ saves: 3 });
    // Another browser never saw any: it takes what the server answers.
    store.clear();
    server.pins = { ...older, rev: 9 };
    expect(await loadAfresh(holder)).toMatchObject({ saves: 1, pins: { "3": pin("old") } });
  });

  it("is counted per account key: a renewal carries it on, and the user may take the server's book after all", async () => {
    store.clear();
    server.pins = { data: null, rev: 0 };
    const from = { uid: 11, keys: await generateAccountKeys() };
    await updatePins(from, (book) => ({ ...book, pins: { "3": pin("old") } }));
    const before = { ...server.pins };
    const to = { uid: 11, keys: await generateAccountKeys() };
    await resealPins(from, to);
    expect(await openAccountData(to.keys, { userId: 11, kind: "pins" }, server.pins.data!)).toMatchObject({ saves: 2 });
    // The server answers the book of before the renewal (sealed under the old key): refused under the new one.
    server.pins = { ...before, rev: 4 };
    expect(await loadAfresh(to)).toBe("pins_dropped");
    // The user decides the server was restored from a backup: the server's book is taken (here none opens: none).
    acceptServerPins();
    expect(await pinBook(to)).toMatchObject({ saves: 0, pins: {} });
    await updatePins(to, (book) => ({ ...book, pins: { "3": pin("new") } }));
    expect(await loadAfresh(to)).toMatchObject({ saves: 1 });
  });

  it("reads a book saved before the count as none saved", async () => {
    store.clear();
    const holder = { uid: 12, keys: await generateAccountKeys() };
    server.pins = { data: await sealAccountData(holder.keys, { userId: 12, kind: "pins" }, { v: 1, anchors: [], pins: { "3": pin("old") } }), rev: 2 };
    expect(await loadAfresh(holder)).toMatchObject({ saves: 0, pins: { "3": pin("old") } });
    await updatePins(holder, (book) => ({ ...book, pins: {} }));
    expect(await openAccountData(holder.keys, { userId: 12, kind: "pins" }, server.pins.data!)).toMatchObject({ saves: 1 });
  });
});

describe("the line of the book's saves (docs/protocol.md §14.10: the server forks two browsers' saves)", () => {
  const pin = (userId: number, seq = 0) => ({ userId, keyId: `k${userId}.${seq}`, seq, verified: false });
  /** Two browsers of one user: each has its own storage; `use` switches this test's page to one. */
  function browsers() {
    const saved = new Map<string, Map<string, string>>();
    let now = "";
    return (name: string) => {
      if (now) saved.set(now, new Map(store));
      store.clear();
      for (const [key, value] of saved.get(name) ?? []) store.set(key, value);
      now = name;
      forgetPins();
    };
  }
  const opened = async (holder: { uid: number; keys: AccountKeys }) => (await openAccountData(holder.keys, { userId: holder.uid, kind: "pins" }, server.pins.data!)) as { saves: number; marks: string[] };

  it("names the books it was saved over, the last LINE_MAX", async () => {
    store.clear();
    server.pins = { data: null, rev: 0 };
    const holder = { uid: 20, keys: await generateAccountKeys() };
    forgetPins();
    await updatePins(holder, (book) => ({ ...book, pins: { "3": pin(3) } }));
    const first = await openAccountData(holder.keys, { userId: 20, kind: "pins" }, server.pins.data!);
    expect(first).toMatchObject({ saves: 1, marks: [] });
    await updatePins(holder, (book) => ({ ...book, pins: { "3": pin(3, 1) } }));
    expect(await opened(holder)).toMatchObject({ saves: 2, marks: [await accountDataMark(first)] });
    for (let i = 0; i < LINE_MAX + 3; i++) await updatePins(holder, (book) => ({ ...book, pins: { "3": pin(3, i + 2) } }));
    const last = await opened(holder);
    expect(last.saves).toBe(LINE_MAX + 5);
    expect(last.marks).toHaveLength(LINE_MAX);
    expect(new Set(last.marks).size).toBe(LINE_MAX);
  });

  it("refuses a book of another line than the one this browser saw, at the same count or later; takes its own line's", async () => {
    const use = browsers();
    server.pins = { data: null, rev: 0 };
    const holder = { uid: 21, keys: await generateAccountKeys() };
    use("a");
    await updatePins(holder, (book) => ({ ...book, pins: { "3": pin(3) } }));
    const before = { ...server.pins };
    // Browser a pins Bob's new key (save 2).
    await updatePins(holder, (book) => ({ ...book, pins: { "3": pin(3, 1) } }));
    const ours = { ...server.pins };

    // The server shows browser b the book of before; b saves over it (save 2 of another line).
    use("b");
    server.pins = { ...before, rev: 7 };
    await updatePins(holder, (book) => ({ ...book, pins: { ...book.pins, "4": pin(4) } }));
    const theirs = { ...server.pins };
    expect((await opened(holder)).saves).toBe(2);
    // Then browser a is shown b's line: its count is no lower, but Bob's new key is gone from it.
    use("a");
    expect(await loadAfresh(holder)).toBe("pins_forked");
    await updatePins(holder, (book) => book).catch(() => undefined);
    use("b");
    await updatePins(holder, (book) => ({ ...book, pins: { ...book.pins, "5": pin(5) } }));
    use("a");
    expect(await loadAfresh(holder)).toBe("pins_forked");

    // Its own line goes on: a third browser is shown a's book and saves after it; a takes that.
    use("c");
    server.pins = { ...ours, rev: 9 };
    await updatePins(holder, (book) => ({ ...book, pins: { ...book.pins, "6": pin(6) } }));
    use("a");
    expect(await loadAfresh(holder)).toMatchObject({ saves: 3, pins: { "3": pin(3, 1), "6": pin(6) } });
    // The user may still take the server's book after a refusal.
    server.pins = theirs;
    expect(await loadAfresh(holder)).toBe("pins_rolled_back");
    acceptServerPins();
    expect(await pinBook(holder)).toMatchObject({ saves: 2, pins: { "4": pin(4) } });
  });

  it("decides on the count alone for a book seen before the line, or more than LINE_MAX saves back", async () => {
    const use = browsers();
    server.pins = { data: null, rev: 0 };
    const holder = { uid: 22, keys: await generateAccountKeys() };
    use("a");
    await updatePins(holder, (book) => ({ ...book, pins: { "3": pin(3) } }));
    const before = { ...server.pins };
    await updatePins(holder, (book) => ({ ...book, pins: { "3": pin(3, 1) } }));
    // Another line, saved on from save 1: while the book a saw (save 2) is within its last LINE_MAX
    // marks, a finds the fork; one save further, it cannot, and takes the book on its count.
    use("b");
    server.pins = { ...before, rev: 3 };
    for (let i = 0; i <= LINE_MAX; i++) await updatePins(holder, (book) => ({ ...book, pins: { "4": pin(4, i) } }));
    use("a");
    expect(await loadAfresh(holder)).toBe("pins_forked");
    use("b");
    await updatePins(holder, (book) => ({ ...book, pins: { "4": pin(4, 99) } }));
    use("a");
    expect(await loadAfresh(holder)).toMatchObject({ saves: LINE_MAX + 3 });

    // A browser that remembers only a count (stored before the line) takes another line of that count.
    use("c");
    server.pins = { ...before, rev: 4 };
    await updatePins(holder, (book) => ({ ...book, pins: { "5": pin(5) } }));
    const other = { ...server.pins };
    use("d");
    server.pins = { ...before, rev: 5 };
    await updatePins(holder, (book) => ({ ...book, pins: { "6": pin(6) } }));
    const seen = JSON.parse(store.get("sealwork.trust.saves")!) as Record<string, { saves: number }>;
    expect(Object.values(seen)).toEqual([{ saves: 2, mark: expect.any(String) }]);
    store.set("sealwork.trust.saves", JSON.stringify(Object.fromEntries(Object.keys(seen).map((slot) => [slot, 2]))));
    server.pins = other;
    expect(await loadAfresh(holder)).toMatchObject({ saves: 2, pins: { "5": pin(5) } });

  });
});

