import { generateAccountKeys, openAccountData } from "@sealwork/crypto";
import { describe, expect, it, vi } from "vitest";

// The pins are saved to a fake server; the book is checked as the client opens it.
const server = vi.hoisted(() => ({ pins: { data: null as string | null, rev: 0 } }));
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

const { forgetPins, pinBook, rememberHead, rememberedHead } = await import("./pins");

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
  const store = new Map<string, string>();
  vi.stubGlobal("localStorage", {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  });
  const root = "AAECAwQFBgcICQoLDA0ODw";

  it("stay when the server answers no book, a book that does not open, or one without anchors; a browser that pinned none has none", async () => {
    const holder = { uid: 8, keys: await generateAccountKeys() };
    server.pins = { data: null, rev: 0 };
    forgetPins();
    expect((await pinBook(holder)).anchors).toEqual([]);
    const { updatePins } = await import("./pins");
    await updatePins(holder, (book) => ({ ...book, anchors: [root] }));
    expect(store.get("sealwork.trust.anchors")).toBe(JSON.stringify([root]));

    // The server drops the book: the next sign-in here (this user or another) starts from the anchors this browser pinned.
    server.pins = { data: null, rev: 5 };
    forgetPins();
    expect((await pinBook(holder)).anchors).toEqual([root]);
    forgetPins();
    expect((await pinBook({ uid: 9, keys: await generateAccountKeys() })).anchors).toEqual([root]);
    // Bytes that do not open with the user's keys (another user's book): the same.
    await updatePins(holder, (book) => ({ ...book, heads: { "1": { seq: 0, hash: hash("d") } } }));
    forgetPins();
    expect((await pinBook({ uid: 8, keys: await generateAccountKeys() })).anchors).toEqual([root]);

    // Another browser (nothing stored) takes what the server shows at first use, as before.
    store.clear();
    server.pins = { data: null, rev: 6 };
    forgetPins();
    expect((await pinBook(holder)).anchors).toEqual([]);
  });
});
