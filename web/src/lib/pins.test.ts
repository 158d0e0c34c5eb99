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
