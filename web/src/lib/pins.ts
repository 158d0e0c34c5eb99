import { type AccountKeys, type IdentityPin, type LogHead, accountDataMark, accountPublicKeys, isCryptoError, keyId, openAccountData, sealAccountData } from "@sealwork/crypto";
import * as z from "zod";
import { call, isApiError } from "./api";
import { TEST_CHECKS, checkOff } from "./build-settings";
import { i18next } from "./i18n";
import { memoryStore } from "./memory-store";
import { TRUST_PREFIX } from "./storage";

/**
 * The user's pins (docs/protocol.md §14.5): the instance anchors pinned on first use, each
 * contact's identity key as first seen (or later certified), and the head of each conversation's
 * membership log this client verified last (§14.8: a log without it is a fork or a rollback). Kept on the server as the user's
 * encrypted account data (`sealAccountData`, a key derived from the account keys), so another
 * browser of the same user has them and the server reads nothing; cached in this page's memory.
 */

/**
 * checkPin's pin, or a protocol v1 contact's key (`legacy`): pinned on first use, or `certified` by
 * an administrator (never taken back to uncertified). `reset`: an administrator's key reset moved
 * it (lib/trust.ts), until the user marks the person verified.
 */
export interface Pin extends IdentityPin {
  legacy?: true;
  certified?: true;
  reset?: true;
}

export interface PinBook {
  /** The root key ids of the instance, pinned at first use. */
  anchors: string[];
  /** By user id. */
  pins: Record<string, Pin>;
  /** By conversation id: the membership log's head last verified (protocol v2). */
  heads: Record<string, LogHead>;
  /** The instance's root said that version 1 keys count only when certified (docs/protocol.md §14.14); once pinned, for good. */
  legacyRule?: true;
  /** How many times the book was saved (sealed inside it): a browser refuses a book older than one it saw. */
  saves: number;
  /**
   * The marks (accountDataMark) of the books this one was saved over, oldest first, the last
   * LINE_MAX: the book of save `saves - marks.length + i` is `marks[i]`. A browser that saw a book of
   * this line finds it here; one that finds another was shown a fork (docs/protocol.md §14.10).
   */
  marks: string[];
}

/** How many saves back a book names (about 1.5 KB). */
export const LINE_MAX = 64;

const keyIdText = z.string().min(1).max(64);
const bookSchema = z.object({
  v: z.literal(1),
  anchors: z.array(keyIdText).max(64),
  pins: z.record(
    z.string().regex(/^[1-9][0-9]*$/),
    z.object({
      userId: z.number().int().min(1),
      keyId: keyIdText,
      seq: z.number().int().min(0),
      verified: z.boolean(),
      legacy: z.literal(true).optional(),
      certified: z.literal(true).optional(),
      reset: z.literal(true).optional(),
    }),
  ),
  heads: z
    .record(z.string().regex(/^g?[1-9][0-9]*$/), z.object({ seq: z.number().int().min(0), hash: z.string().min(1).max(64) }))
    .optional(),
  legacyRule: z.literal(true).optional(),
  // Books saved before the count existed have none: 0.
  saves: z.number().int().min(0).optional(),
  // Books saved before the line existed have none.
  marks: z.array(z.string().min(1).max(64)).max(LINE_MAX).optional(),
});

interface Holder {
  uid: number;
  keys: AccountKeys;
}

interface Loaded {
  uid: number;
  keys: AccountKeys;
  /** Where this browser counts the book's saves (savesSlot). */
  slot: string;
  rev: number;
  book: PinBook;
  /** The book's own mark (none for the empty start of an account or key without a book). */
  mark?: string;
}

const EMPTY: PinBook = { anchors: [], pins: {}, heads: {}, saves: 0, marks: [] };
let loaded: Promise<Loaded> | null = null;
/** Account keys whose book resealPins carried to a new key: their reads and saves go to the new key's book. */
const successors = new WeakMap<AccountKeys, Holder>();
/** What is sealed: the book as JSON, in the shape bookSchema reads. */
const bookValue = (book: PinBook) => ({
  v: 1,
  anchors: book.anchors,
  pins: book.pins,
  heads: book.heads,
  saves: book.saves,
  marks: book.marks,
  ...(book.legacyRule ? { legacyRule: true } : {}),
});
/** The next save of the loaded book: one more, and its mark added to the line. */
const nextSave = (state: Loaded, book: PinBook): PinBook => ({
  ...book,
  saves: state.book.saves + 1,
  marks: state.mark ? [...state.book.marks, state.mark].slice(-LINE_MAX) : state.book.marks,
});
const listeners = new Set<() => void>();

/** The pins of the signed-in user (loaded once per unlocked key). */
export async function pinBook(holder: Holder): Promise<PinBook> {
  return (await current(holder)).book;
}

function current(of: Holder): Promise<Loaded> {
  // A renewed key's book went to its successor: read or saved under the old key, it would start
  // over and save an empty book over the carried one (the renewal's own work with the old key, or
  // a request of a screen that began before the switch).
  let holder = of;
  for (let next = successors.get(holder.keys); next; next = successors.get(holder.keys)) holder = next;
  if (!loaded) {
    loaded = load(holder);
    // A failed load is not kept: the next use tries again.
    loaded.catch(() => (loaded = null));
    return loaded;
  }
  return loaded.then((state) => (state.uid === holder.uid && state.keys === holder.keys ? state : reload(holder)));
}

function reload(holder: Holder): Promise<Loaded> {
  loaded = null;
  return current(holder);
}

async function load({ uid, keys }: Holder): Promise<Loaded> {
  const slot = await savesSlot(uid, keys);
  // Read before asking: a save of another window of this browser that lands while the answer is
  // on its way must not make that answer look older than what was seen.
  const seen = savesSeen(slot);
  const reply = await call("GET /api/identities/pins");
  // No book (a new account), or one that does not open with this key (sealed under a key made
  // anew): none, but the anchors this browser pinned stay. Unless this browser saw a book of this
  // key: then the server dropped or spoiled it (docs/protocol.md §14.10).
  const anew = (): Loaded => {
    if (seen.saves > 0) throw refuse(slot, "pins_dropped");
    return { uid, keys, slot, rev: reply.rev, book: { ...EMPTY, anchors: browserAnchors() } };
  };
  if (reply.data === null) return anew();
  let parsed: z.infer<typeof bookSchema>;
  let mark: string;
  try {
    const opened = await openAccountData(keys, { userId: uid, kind: "pins" }, reply.data);
    parsed = bookSchema.parse(opened);
    mark = await accountDataMark(opened);
  } catch (error) {
    if (!isCryptoError(error) && !(error instanceof z.ZodError)) throw error;
    console.warn("The saved pins do not open with this key", error);
    return anew();
  }
  const saves = parsed.saves ?? 0;
  const marks = parsed.marks ?? [];
  // An older book than one this browser saw: the server replays it (its pins, marks and heads rolled back).
  if (saves < seen.saves) throw refuse(slot, "pins_rolled_back");
  // A book whose line does not hold the one this browser saw: the server forked the user's saves
  // (another browser of theirs was shown an older book and saved over it).
  if (!onLine(seen, saves, marks, mark)) throw refuse(slot, "pins_forked");
  const anchors = parsed.anchors.length > 0 ? parsed.anchors : browserAnchors();
  const book: PinBook = { anchors, pins: parsed.pins, heads: parsed.heads ?? {}, saves, marks, ...(parsed.legacyRule ? { legacyRule: true as const } : {}) };
  keepBrowserAnchors(anchors);
  keepSavesSeen(slot, { saves, mark });
  refusal.clear();
  return { uid, keys, slot, rev: reply.rev, book, mark };
}

/**
 * Whether a book (its count, line and own mark) goes on from the one this browser saw: the same
 * book, or one whose line names it. A book this browser saw without a mark (before the line) or
 * more than LINE_MAX saves back cannot be found, and is taken on the count alone.
 */
function onLine(seen: Seen, saves: number, marks: string[], mark: string): boolean {
  if (!seen.mark || seen.saves === 0) return true;
  if (saves === seen.saves) return mark === seen.mark;
  const at = seen.saves - (saves - marks.length);
  return at < 0 || marks[at] === seen.mark;
}

/**
 * Why this browser refuses the book the server answered (docs/protocol.md §14.10): it saw a
 * newer one of the same account key (`pins_rolled_back`), or saw one and the server answers none or
 * one that does not open (`pins_dropped`), or one whose line of saves does not hold the one it saw
 * (`pins_forked`). Nothing that needs the pins works until the user decides
 * (useRefusedPins, acceptServerPins).
 */
export type PinsProblem = "pins_rolled_back" | "pins_dropped" | "pins_forked";

export class PinsRefusedError extends Error {
  readonly reason: PinsProblem;
  readonly slot: string;
  constructor(reason: PinsProblem, slot: string) {
    super(i18next.t(`common:trust.${reason}`));
    this.name = "PinsRefusedError";
    this.reason = reason;
    this.slot = slot;
  }
}

const refusal = memoryStore<PinsRefusedError>();
/** The refusal of the signed-in user's book, while there is one (the shell shows it). */
export const useRefusedPins = refusal.use;

function refuse(slot: string, reason: PinsProblem): PinsRefusedError {
  const error = new PinsRefusedError(reason, slot);
  refusal.set(error);
  return error;
}

/**
 * The user takes the book the server answers after all (the server restored a backup, say): this
 * browser forgets the saves it saw of this key, and the pins load again as the server has them.
 */
export function acceptServerPins(): void {
  const error = refusal.get();
  if (!error) return;
  keepSavesSeen(error.slot, { saves: 0 }, true);
  refusal.clear();
  loaded = null;
}

const SAVES_KEY = `${TRUST_PREFIX}saves`;
/** The newest book this browser saw of a slot: its count and mark (a number: remembered before the line). */
interface Seen {
  saves: number;
  mark?: string;
}
const seenSchema = z.union([
  z.number().int().min(0).transform((saves): Seen => ({ saves })),
  z.object({ saves: z.number().int().min(0), mark: z.string().min(1).max(64).optional() }),
]);
const savesSchema = z.record(z.string(), seenSchema);

/** A book is counted per user and account key (a key made anew starts a book of its own). */
async function savesSlot(uid: number, keys: AccountKeys): Promise<string> {
  return `${uid}:${await keyId(await accountPublicKeys(keys))}`;
}

function savesAll(): Record<string, Seen> {
  try {
    return savesSchema.parse(JSON.parse(globalThis.localStorage?.getItem(SAVES_KEY) ?? "{}"));
  } catch {
    return {};
  }
}

/** The newest book this browser saw of a slot (saves 0: none seen). */
function savesSeen(slot: string): Seen {
  // Test build only: a browser that counts nothing ("pins-saves" off).
  if (TEST_CHECKS && checkOff("pins-saves")) return { saves: 0 };
  const seen = savesAll()[slot] ?? { saves: 0 };
  // Test build only: a browser that remembers no mark, so counts alone decide ("pins-line" off).
  return TEST_CHECKS && checkOff("pins-line") ? { saves: seen.saves } : seen;
}

/** Remembers the newest book seen, only forward (unless the user took the server's book: `reset`). */
function keepSavesSeen(slot: string, seen: Seen, reset = false): void {
  const all = savesAll();
  if (!reset && (all[slot]?.saves ?? 0) >= seen.saves) return;
  globalThis.localStorage?.setItem(SAVES_KEY, JSON.stringify({ ...all, [slot]: seen }));
}

const ANCHORS_KEY = `${TRUST_PREFIX}anchors`;

/**
 * The instance anchors this browser pinned before, for any user (docs/protocol.md §14.10): a book
 * the server withholds, replaces by bytes that do not open, or serves without anchors starts from
 * these, not from the roots the server shows. A browser that never pinned any (a first sign-in
 * here) has none: then the server's roots are pinned at first use, as before. The key popup tries
 * a backup with them too, to tell a withheld root from a wrong code (features/keys, openBackup).
 */
export function browserAnchors(): string[] {
  // Test build only: a browser that remembers nothing ("pins-browser-anchors" off).
  if (TEST_CHECKS && checkOff("pins-browser-anchors")) return [];
  try {
    const saved: unknown = JSON.parse(globalThis.localStorage?.getItem(ANCHORS_KEY) ?? "[]");
    return z.array(keyIdText).max(64).parse(saved);
  } catch {
    return [];
  }
}

/** Remembers the anchors of a book in this browser, the first ones for good (an instance's root is published once). */
function keepBrowserAnchors(anchors: string[]): void {
  if (anchors.length === 0 || browserAnchors().length > 0) return;
  globalThis.localStorage?.setItem(ANCHORS_KEY, JSON.stringify(anchors));
}


/**
 * Changes the pins: `change` gets the newest book and answers the next one (or null for no
 * change), which is sealed and saved over the revision it started from. Another window's save in
 * between (409) loads theirs and runs `change` again on it, so neither change is lost.
 */
export async function updatePins(holder: Holder, change: (book: PinBook) => PinBook | null): Promise<PinBook> {
  for (let attempt = 0; ; attempt++) {
    const state = await current(holder);
    const changed = change(state.book);
    if (!changed) return state.book;
    const next = nextSave(state, changed);
    const value = bookValue(next);
    // Sealed for the key the book is of (a renewed key's successor: current).
    const data = await sealAccountData(state.keys, { userId: state.uid, kind: "pins" }, value);
    const mark = await accountDataMark(value);
    try {
      const { rev } = await call("PUT /api/identities/pins", { body: { data, rev: state.rev } });
      state.rev = rev;
      state.book = next;
      state.mark = mark;
      keepBrowserAnchors(next.anchors);
      keepSavesSeen(state.slot, { saves: next.saves, mark });
      for (const listener of listeners) listener();
      return next;
    } catch (error) {
      if (!isApiError(error, 409) || attempt >= 4) throw error;
      await reload(holder);
    }
  }
}

/**
 * A rotation of the account key (Settings → Advanced, "Renew my key"): the book `from` opens is
 * saved again sealed for `to` (over the revision it was read at; 409: read again, with `from`);
 * from then on the cache holds it for `to`, and what `from` reads and saves is `to`'s book. Called
 * as soon as `to` is registered, while both keys are in memory: the key derived from `from` opens
 * nothing of `to`'s. The count of saves goes on under `to`.
 */
export async function resealPins(from: Holder, to: Holder): Promise<PinBook> {
  const slot = await savesSlot(to.uid, to.keys);
  for (let attempt = 0; ; attempt++) {
    const state = await current(from);
    const book = nextSave(state, state.book);
    const value = bookValue(book);
    const data = await sealAccountData(to.keys, { userId: to.uid, kind: "pins" }, value);
    const mark = await accountDataMark(value);
    try {
      const { rev } = await call("PUT /api/identities/pins", { body: { data, rev: state.rev } });
      successors.set(from.keys, to);
      keepSavesSeen(slot, { saves: book.saves, mark });
      loaded = Promise.resolve({ uid: to.uid, keys: to.keys, slot, rev, book, mark });
      for (const listener of listeners) listener();
      return book;
    } catch (error) {
      if (!isApiError(error, 409) || attempt >= 4) throw error;
      await reload(from);
    }
  }
}

/** Called after every saved change (the conversation panel refreshes what it shows). */
export function subscribePins(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forgets the cached pins (a logout, another user). */
export function forgetPins(): void {
  loaded = null;
  refusal.clear();
}

/** Whose log a head is: a conversation's (its id), or a group's. */
export type LogPlace = number | { group: number };
const headKey = (place: LogPlace) => (typeof place === "number" ? String(place) : `g${place.group}`);

/** The head of a conversation's (or a group's) membership log this client verified last (undefined: never). */
export async function rememberedHead(holder: Holder, place: LogPlace): Promise<LogHead | undefined> {
  return (await pinBook(holder)).heads[headKey(place)];
}

/**
 * Remembers a verified head. Only forward: the caller verified that the log holds the head it
 * remembered, so a head further along replaces it, and an older one (another window verified a
 * longer log meanwhile) changes nothing.
 */
export async function rememberHead(holder: Holder, place: LogPlace, head: LogHead): Promise<void> {
  const at = headKey(place);
  await updatePins(holder, (book) => {
    const known = book.heads[at];
    if (known && (known.seq > head.seq || (known.seq === head.seq && known.hash === head.hash))) return null;
    return { ...book, heads: { ...book.heads, [at]: { seq: head.seq, hash: head.hash } } };
  });
}
