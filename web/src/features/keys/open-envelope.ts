import { type AccountKeys, type SecureCodeWrapEnvelope, isCryptoError, unwrapAccountKeys } from "@sealwork/crypto";
import { KeyFlowError, type KeyErrorCode } from "./key-errors";

/** What `open` answers for a code that does not open the envelope. */
export const WRONG_CODE = "wrong-code" as const;

/** Opens an envelope; a wrong code is an answer, not an error. */
export async function open(
  envelope: SecureCodeWrapEnvelope,
  code: string,
  codes: { damaged: KeyErrorCode; malformed: KeyErrorCode },
): Promise<AccountKeys | typeof WRONG_CODE> {
  try {
    return await unwrapAccountKeys(envelope, code);
  } catch (error) {
    if (isCryptoError(error, "decrypt_failed") || isCryptoError(error, "invalid_input")) return WRONG_CODE;
    if (isCryptoError(error, "invalid_key")) throw new KeyFlowError(codes.damaged, { cause: error });
    if (isCryptoError(error, "crypto_unavailable")) throw new KeyFlowError("NCRP", { cause: error });
    if (isCryptoError(error)) throw new KeyFlowError(codes.malformed, { cause: error });
    throw error;
  }
}
