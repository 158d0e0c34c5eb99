import { INVITE_VALID_DAYS, type Body, type Response } from "@sealwork/contracts";
import { createInvitation, generateAccountKeys, identityKeys, wrapAccountKeys } from "@sealwork/crypto";
import { call, isApiError } from "../../lib/api";
import { secureCodeSetting } from "../../lib/build-settings";
import { errorText } from "../../lib/error-text";
import { i18next } from "../../lib/i18n";
import { generateInvitationCode } from "../../lib/invitation-code";
import { signedPublicKey } from "../../lib/keypairs";
import { ownIdentity } from "../../lib/trust";
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

export interface PreparedInvite {
  code: string;
  public_key: Body<"POST /api/instance/invite">["public_key"];
  transit: Record<string, unknown>;
}

/**
 * The invitee's temporary keys, made here (docs/protocol.md §13): an invitation code (or the
 * build's default code where the build switched secure codes off), the keys wrapped under it, and their
 * signature. The code stays in this browser: it is shown to the administrator only.
 */
export async function prepareInvite(): Promise<PreparedInvite> {
  try {
    const code = secureCodeSetting().defaultCode ?? generateInvitationCode();
    const keys = await generateAccountKeys();
    const transit = await wrapAccountKeys(keys, code);
    return { code, public_key: await signedPublicKey(keys, "temp"), transit: { ...transit } };
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
  const me = await ownIdentity(unlocked);
  if (!me?.admin || me.keyId !== (await identityKeys(unlocked.uid, unlocked.keys)).keyId) return undefined;
  const id = inviteId ?? (await call("POST /api/instance/invites/reserve")).id;
  const temp = { encryptPublic: prepared.public_key.encrypt_public, signPublic: prepared.public_key.sign_public };
  const invitation = await createInvitation({ inviteId: id, email, temp, expires: Date.now() + INVITE_VALID_DAYS * DAY_MS }, await identityKeys(unlocked.uid, unlocked.keys));
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
