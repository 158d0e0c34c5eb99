import { type AccountKeys, type SecureCodeWrapEnvelope, isCryptoError, unwrapBoundAccountKeys } from "@sealwork/crypto";
import { KeyFlowError, type KeyErrorCode } from "./key-errors";

/** What `open` answers for a code that does not open the envelope. */
export const WRONG_CODE = "wrong-code" as const;

/**
 * Opens an envelope; a wrong code is an answer, not an error. `anchors`: the roots the server
 * shows, one of which an account key's backup may be bound to (`anchor` answers it; null: bound
 * to none). A backup bound to a root the server does not show opens as a wrong code would not.
 */
export async function open(
  envelope: SecureCodeWrapEnvelope,
  code: string,
  codes: { damaged: KeyErrorCode; malformed: KeyErrorCode },
  anchors: readonly string[] = [],
): Promise<{ keys: AccountKeys; anchor: string | null } | typeof WRONG_CODE> {
  try {
    return await unwrapBoundAccountKeys(envelope, code, anchors);
  } catch (error) {
    if (isCryptoError(error, "decrypt_failed") || isCryptoError(error, "invalid_input")) return WRONG_CODE;
    if (isCryptoError(error, "invalid_key")) throw new KeyFlowError(codes.damaged, { cause: error });
    if (isCryptoError(error, "crypto_unavailable")) throw new KeyFlowError("NCRP", { cause: error });
    if (isCryptoError(error)) throw new KeyFlowError(codes.malformed, { cause: error });
    throw error;
  }
}
