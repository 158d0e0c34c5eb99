import { type Body, KEY_RESET_DAYS, type PublicUser } from "@sealwork/contracts";
import { type IdentityChain, type SignedIdentity, createKeyReset, identityKeys, isCryptoError, verifyIdentity } from "@sealwork/crypto";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { errorText } from "../../lib/error-text";
import { i18next } from "../../lib/i18n";
import { makeTempKeys, tempPublicKeys } from "../../lib/temp-keys";
import { fetchBundle, instanceAnchors, ownAdminIdentity } from "../../lib/trust";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import "./i18n";

/**
 * An administrator resets the key of a user who lost their secure code (docs/protocol.md §14.3,
 * "Key resets"): as for an invitation (§13), this browser makes temporary keys and a code that
 * only the administrator sees, and signs a key reset naming those keys and the key the user
 * loses; the server makes the temporary key the user's current key, and their key popup asks for
 * the code.
 */

export interface KeyResetMade {
  /** The reset code, for the administrator to pass on by another channel. */
  code: string;
  /** Seconds: the end of the reset, after which it cannot be taken over. */
  expires: number;
}

/** A failed reset, with the text to show. */
export class KeyResetError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "KeyResetError";
  }
}

const DAY_MS = 86_400_000;

/**
 * The record the reset replaces: the last of the user's identity chain, verified against this
 * client's pinned anchors (a server cannot make the administrator certify a chain of its own),
 * or null for an account of protocol version 1 without an identity.
 */
export async function currentIdentity(me: UnlockedKeys, uid: number): Promise<SignedIdentity | null> {
  const bundle = await fetchBundle(uid, true);
  if (!bundle.chain) return null;
  const chain = bundle.chain as unknown as IdentityChain;
  if (chain.userId !== uid) throw new KeyResetError(i18next.t("admin:reset.untrusted"));
  try {
    await verifyIdentity(chain, { anchors: await instanceAnchors(me) });
  } catch (cause) {
    if (!isCryptoError(cause)) throw cause;
    throw new KeyResetError(i18next.t("admin:reset.untrusted"), { cause });
  }
  return chain.records.at(-1)!;
}

/** Resets `user`'s key: POST /api/identities/{id}/reset with the temporary keys, their transit envelope and the signed reset. */
export async function resetKey(me: UnlockedKeys, user: PublicUser): Promise<KeyResetMade> {
  if (!(await ownAdminIdentity(me))) throw new KeyResetError(i18next.t("admin:reset.notAdmin"));
  const current = await currentIdentity(me, user.id);
  const email = user.email ?? user.phone;
  if (!current && !email) throw new KeyResetError(i18next.t("admin:reset.noAddress"));
  let body: Body<"POST /api/identities/{id}/reset">;
  let code: string;
  try {
    const temp = await makeTempKeys();
    const input = { userId: user.id, current, ...(current ? {} : { email: email! }), temp: tempPublicKeys(temp), expires: Date.now() + KEY_RESET_DAYS * DAY_MS };
    const reset = await createKeyReset(input, await identityKeys(me.uid, me.keys));
    body = { public_key: temp.public_key, transit: temp.transit, reset: { ...reset } };
    code = temp.code;
  } catch (cause) {
    throw new KeyResetError(i18next.t("admin:reset.keys"), { cause });
  }
  try {
    const made = await call("POST /api/identities/{id}/reset", { params: { id: user.id }, body });
    return { code, expires: made.expires };
  } catch (cause) {
    throw new KeyResetError(errorText(cause, i18next.t("admin:reset.failed")), { cause });
  }
}

export function useResetKey(me: UnlockedKeys | null) {
  const client = useQueryClient();
  // The users list shows the pending reset; a version 1 account's key is no longer one to certify.
  return useMutation({
    mutationFn: (user: PublicUser) => resetKey(me!, user),
    onSuccess: () => Promise.all([queryKeys.admin.users(), queryKeys.admin.legacyKeys()].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}
