import { INVITE_VALID_DAYS, type Body, type Response } from "@sealwork/contracts";
import { createInvitation, identityKeys } from "@sealwork/crypto";
import { call, isApiError } from "../../lib/api";
import { errorText } from "../../lib/error-text";
import { i18next } from "../../lib/i18n";
import { type TempKeys, makeTempKeys, tempPublicKeys } from "../../lib/temp-keys";
import { ownAdminIdentity } from "../../lib/trust";
import { getUnlockedKeys } from "../../lib/unlocked-keys";
import "./i18n";

export type InviteDetails = Omit<Body<"POST /api/instance/invite">, "public_key" | "transit" | "invitation">;
export type CreatedInvite = Response<"POST /api/instance/invite">;

/** The form's failures (spec 000 §4, §8): `resubmit` for details the administrator can correct. */
export class InviteError extends Error {
  readonly resubmit: boolean;
  constructor(message: string, resubmit: boolean, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "InviteError";
    this.resubmit = resubmit;
  }
}

export type PreparedInvite = TempKeys;

/** The invitee's temporary keys and invitation code, made here (docs/protocol.md §13; lib/temp-keys.ts). */
export async function prepareInvite(): Promise<PreparedInvite> {
  try {
    return await makeTempKeys();
  } catch (cause) {
    throw new InviteError(i18next.t("invite:errors.keys"), false, { cause });
  }
}

const DAY_MS = 86_400_000;

/**
 * The invitation signed with this administrator's identity key (protocol v2, docs/protocol.md
 * §14.3): for the invitee's address and temporary keys, on an invite id reserved for it, valid 30
 * days. Undefined when this administrator has no certified identity with administrator rights
 * (a legacy invitation then: the invitee is shown to others as not certified). `inviteId` names
 * the invite when one is issued again.
 */
export async function signInvitation(email: string, prepared: Pick<PreparedInvite, "public_key">, inviteId?: number): Promise<Record<string, unknown> | undefined> {
  const unlocked = getUnlockedKeys();
  if (!unlocked) return undefined;
  if (!(await ownAdminIdentity(unlocked))) return undefined;
  const id = inviteId ?? (await call("POST /api/instance/invites/reserve")).id;
  const invitation = await createInvitation({ inviteId: id, email, temp: tempPublicKeys(prepared), expires: Date.now() + INVITE_VALID_DAYS * DAY_MS }, await identityKeys(unlocked.uid, unlocked.keys));
  return { ...invitation };
}

/** POST /api/instance/invite. Which failures the administrator can correct is decided here. */
export async function sendInvite(details: InviteDetails, prepared: PreparedInvite): Promise<CreatedInvite> {
  let invitation: Record<string, unknown> | undefined;
  try {
    invitation = await signInvitation(details.email, prepared);
  } catch (cause) {
    throw new InviteError(i18next.t("invite:errors.keys"), false, { cause });
  }
  try {
    return await call("POST /api/instance/invite", { body: { ...details, public_key: prepared.public_key, transit: prepared.transit, ...(invitation ? { invitation } : {}) } });
  } catch (error) {
    if (isApiError(error, 422) && Object.keys(error.fields).length > 0) {
      // Spec 000 §8: the server's errors map, joined into one message.
      const joined = Object.entries(error.fields)
        .map(([field, messages]) => (field === "groups" ? messages.join(" ") : `${field}: ${messages.join(" ")}`))
        .join("\n");
      throw new InviteError(joined, true, { cause: error });
    }
    // An address in use: correct and resubmit.
    if (isApiError(error, 409)) throw new InviteError(errorText(error), true, { cause: error });
    // The super administrator role, which only a super administrator may grant: resubmit without it.
    if (isApiError(error, 403) && error.code === "forbidden" && details.roles?.superAdmin) {
      throw new InviteError(i18next.t("invite:errors.superOnly"), true, { cause: error });
    }
    // No answer: the invite may or may not have been stored.
    if (isApiError(error, 0) || !isApiError(error)) throw new InviteError(i18next.t("invite:errors.corrupt"), false, { cause: error });
    throw new InviteError(i18next.t("invite:errors.server", { status: error.status }), false, { cause: error });
  }
}
