import type { AccountPublicKeys } from "@sealwork/crypto";
import { generateAccountKeys, wrapAccountKeys } from "@sealwork/crypto";
import { secureCodeSetting } from "./build-settings";
import { generateInvitationCode } from "./invitation-code";
import { signedPublicKey } from "./keypairs";

/**
 * Temporary keys made in an administrator's browser for someone else (docs/protocol.md §13): an
 * invitee's, or those of a user whose key an administrator resets. The code (or the build's
 * default code where the build switched secure codes off) stays in this browser: it is shown to
 * the administrator only, who passes it on by another channel. The private keys are dropped here:
 * what leaves is the public halves with their signature over `tempKeypairRecord`, and the keys
 * wrapped under the code (the transit envelope).
 */
export interface TempKeys {
  code: string;
  public_key: Awaited<ReturnType<typeof signedPublicKey>>;
  transit: Record<string, unknown>;
}

export async function makeTempKeys(): Promise<TempKeys> {
  const code = secureCodeSetting().defaultCode ?? generateInvitationCode();
  const keys = await generateAccountKeys();
  const transit = await wrapAccountKeys(keys, code);
  return { code, public_key: await signedPublicKey(keys, "temp"), transit: { ...transit } };
}

/** The temporary keys' public halves as the signed records (an invitation, a key reset) name them. */
export function tempPublicKeys(temp: Pick<TempKeys, "public_key">): AccountPublicKeys {
  return { encryptPublic: temp.public_key.encrypt_public, signPublic: temp.public_key.sign_public };
}
