import type { Session } from "@sealwork/contracts";
import { derivePickupKeys, unwrapPickupKey } from "@sealwork/crypto";
import { call, isApiError } from "../../lib/api";
import { type GuestPickup, GUEST_ID, saveGuestPickup, setGuestKeys } from "../../lib/guest";
import { i18next } from "../../lib/i18n";
import { setSession } from "../../lib/session";

/**
 * The guest's way in (docs/protocol.md, Pickups, steps 2–3): keys derived from code, security
 * code and link secret with the lookup's parameters; the auth key shown to
 * POST /api/pickup/recover/{lookup}; the answered `pickup-wrap` opened once, so a key that does
 * not open it never becomes a session. Then the guest's session (id 0), the pickup for a reload
 * (sessionStorage, without the security code) and the keys (memory only).
 */
export async function collectPickup(pickup: GuestPickup, securityCode: string): Promise<number> {
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

/** Spec 000 §8: 403 a wrong security code, 404 gone (unknown, expired, deleted or locked). */
export function collectErrorText(error: unknown): string {
  if (isApiError(error, 403)) return i18next.t("keys.pickup.wrongCode");
  if (isApiError(error, 404)) return i18next.t("login.pickup.incorrect");
  if (isApiError(error, 429)) return i18next.t("login.tooMany");
  return i18next.t("keys.pickup.failed");
}
