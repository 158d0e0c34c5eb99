import type { Session } from "@sealwork/contracts";
import { derivePickupKeys, unwrapPickupKey } from "@sealwork/crypto";
import { call } from "../../lib/api";
import { errorText } from "../../lib/error-text";
import { type GuestPickup, GUEST_ID, WeakPickupError, assertPickupFloor, saveGuestPickup, setGuestKeys } from "../../lib/guest";
import { i18next } from "../../lib/i18n";
import { setSession } from "../../lib/session";
import "./i18n";

/**
 * The guest's way in (docs/protocol.md, Pickups, steps 2–3): keys derived from code, security
 * code and link secret with the lookup's parameters; the auth key shown to
 * POST /api/pickup/recover/{lookup}; the answered `pickup-wrap` opened once, so a key that does
 * not open it never becomes a session. Then the guest's session (id 0), the pickup for a reload
 * (sessionStorage, without the security code) and the keys (memory only).
 */
export async function collectPickup(pickup: GuestPickup, securityCode: string): Promise<number> {
  // The lookup checked them; this tab's stored copy is held to the floor again before Argon2id.
  assertPickupFloor(pickup.params);
  const keys = await derivePickupKeys({ code: pickup.code, securityCode, linkSecret: pickup.linkSecret }, pickup.params);
  const recovered = await call("POST /api/pickup/recover/{lookup}", { params: { lookup: pickup.lookup }, body: { auth: keys.auth } });
  await unwrapPickupKey(keys, recovered.wrapped);
  const conversationId = recovered.conversation_id;
  const session: Session = {
    id: GUEST_ID,
    name: recovered.name,
    email: null,
    phone: null,
    api_token: recovered.api_token,
    hasAdminRole: false,
    hasSuperAdminRole: false,
    recoveryTOTP: false,
  };
  saveGuestPickup({ ...pickup, conversationId });
  setGuestKeys({ uid: GUEST_ID, conversationId, pickup: keys });
  setSession(session);
  return conversationId;
}

/** Spec 000 §8: the refusal's text (a wrong security code; gone: unknown, expired, deleted or locked; too many tries). */
export function collectErrorText(error: unknown): string {
  if (error instanceof WeakPickupError) return error.text();
  return errorText(error, i18next.t("keys:pickup.failed"));
}
