import { type Argon2idParams, type PickupKeys, type PickupParams, PICKUP_ARGON2ID_FLOOR, meetsPickupFloor } from "@sealwork/crypto";
import { i18next } from "./i18n";
import { memoryStore } from "./memory-store";
import { type Session, getSession, subscribeSession } from "./session";
import { STORAGE_PREFIX } from "./storage";
import { TEST_CHECKS, checkOff } from "./build-settings";

/**
 * A pickup's guest (spec 000 §6: user id 0, named Guest, only that pickup's conversation). The
 * guest's session is an ordinary one with id 0. Beside it:
 *
 * - the pickup this tab collected (code, link secret, lookup, parameters): in sessionStorage, so
 *   a reload can ask for the security code again. The security code itself is never stored.
 * - the keys derived from code, security code and link secret: in memory only, like the account
 *   keys; they open the `pickup-wrap` the conversation's load answer carries.
 */
export const GUEST_ID = 0;

export function isGuest(session: Pick<Session, "id"> | null): boolean {
  return session?.id === GUEST_ID;
}

export interface GuestPickup {
  code: string;
  linkSecret: string | null;
  lookup: string;
  conversationId: number;
  params: PickupParams;
}

const PICKUP_KEY = `${STORAGE_PREFIX}guest-pickup`;

export function saveGuestPickup(pickup: GuestPickup): void {
  sessionStorage.setItem(PICKUP_KEY, JSON.stringify(pickup));
}

export function readGuestPickup(): GuestPickup | null {
  const raw = sessionStorage.getItem(PICKUP_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<GuestPickup>;
    return typeof value.code === "string" && typeof value.lookup === "string" && typeof value.conversationId === "number" && value.params
      ? (value as GuestPickup)
      : null;
  } catch (error) {
    console.warn("Discarding an unreadable guest pickup", error);
    sessionStorage.removeItem(PICKUP_KEY);
    return null;
  }
}

/** The only page a guest may see (null when this tab holds no pickup). */
export function guestPath(): string | null {
  const pickup = readGuestPickup();
  return pickup ? `/conversation/${pickup.conversationId}` : null;
}

/** The guest's keys for one pickup conversation, in memory only. */
export interface GuestKeys {
  uid: typeof GUEST_ID;
  conversationId: number;
  pickup: PickupKeys;
}

const store = memoryStore<GuestKeys>();

export const getGuestKeys = store.get;
export const setGuestKeys = store.set;
export const clearGuestKeys = store.clear;
export const useGuestKeys = store.use;

// A logout, or a member's session in place of the guest's, drops the keys.
subscribeSession(() => {
  if (store.get() && !isGuest(getSession())) store.clear();
});

/**
 * The lookup answer named Argon2id parameters below the floor (docs/protocol.md, Pickups): the
 * guest derives nothing with them and shows the server nothing (issue 11, item 5).
 */
export class WeakPickupError extends Error {
  readonly params: Argon2idParams;
  constructor(params: Argon2idParams) {
    super(`the pickup's Argon2id parameters are below the floor: ${JSON.stringify(params)}`);
    this.name = "WeakPickupError";
    this.params = params;
  }

  /** What the guest is told, in their language. */
  text(): string {
    return i18next.t("common:pickupWeak", {
      memory: Math.floor((Number(this.params?.memoryKiB) || 0) / 1024),
      passes: Number(this.params?.iterations) || 0,
      minMemory: PICKUP_ARGON2ID_FLOOR.memoryKiB / 1024,
      minPasses: PICKUP_ARGON2ID_FLOOR.iterations,
    });
  }
}

/** Refuses parameters below the floor, before anything is derived from them. */
export function assertPickupFloor(params: Argon2idParams): void {
  // Test build only (test/malicious): whatever the lookup answered is derived with.
  if (TEST_CHECKS && checkOff("pickup-floor")) return;
  if (!meetsPickupFloor(params)) throw new WeakPickupError(params);
}
