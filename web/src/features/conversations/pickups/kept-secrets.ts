import { isValidPickupCode, isValidPickupSecurityCode } from "@sealwork/crypto";
import { STORAGE_PREFIX } from "../../../lib/storage";

/**
 * What only the creator's browser knows of a pickup (docs/api.md, Pickups): the code, the
 * security code and the link secret. The server never gets the security code and keeps neither
 * the code nor the link, so the right panel can show them only from here. Spec 000 §4: kept for
 * the session (sessionStorage) unless the creator chose to remember them (localStorage).
 */
export interface KeptSecrets {
  code: string;
  securityCode: string;
  linkSecret: string | null;
}

const keyOf = (conversationId: number) => `${STORAGE_PREFIX}pickup.${conversationId}`;

export function keepSecrets(conversationId: number, secrets: KeptSecrets, remember: boolean, stores = defaultStores()): void {
  const text = JSON.stringify(secrets);
  (remember ? stores.local : stores.session).setItem(keyOf(conversationId), text);
}

export function readSecrets(conversationId: number, stores = defaultStores()): KeptSecrets | null {
  const raw = stores.session.getItem(keyOf(conversationId)) ?? stores.local.getItem(keyOf(conversationId));
  return raw === null ? null : parseSecrets(raw);
}

export function forgetSecrets(conversationId: number, stores = defaultStores()): void {
  stores.session.removeItem(keyOf(conversationId));
  stores.local.removeItem(keyOf(conversationId));
}

/** A stored entry, or null when it is damaged or not a pickup's. */
export function parseSecrets(raw: string): KeptSecrets | null {
  try {
    const value = JSON.parse(raw) as Partial<KeptSecrets>;
    if (typeof value.code !== "string" || !isValidPickupCode(value.code)) return null;
    if (typeof value.securityCode !== "string" || !isValidPickupSecurityCode(value.securityCode)) return null;
    const linkSecret = typeof value.linkSecret === "string" ? value.linkSecret : null;
    return { code: value.code, securityCode: value.securityCode, linkSecret };
  } catch {
    // Not JSON: nothing kept that could be shown.
    return null;
  }
}

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function defaultStores(): { session: Store; local: Store } {
  return { session: sessionStorage, local: localStorage };
}
