/**
 * The key popup's error codes (spec 000 §8). Each code says where the problem arose, so a user
 * can quote it; the texts are in the i18n files under keys.codes.
 *
 * - NCRP the browser lacks WebCrypto (or X25519/Ed25519)
 * - SNTL the system clock is more than 24 h from the server's
 * - LINV the stored key is not a readable key envelope
 * - KPM1 the stored key has the server key's id but other public keys
 * - KPM2 the stored key decrypts to private keys that do not match its public keys
 * - KPM3 the stored key is newer than the server's current key
 * - KPM4 a key is stored here but the server has none for this user
 * - BRCH an unexpected error while checking; BRCC the server's key record fails its signature check
 * - UNSK no key storage; UNEK the store cannot be opened; UNIV unknown entry format; UNRD read failed
 * - KGAC key generation failed; KGAE encrypting (wrapping or signing) failed; KGAS storing it here failed
 * - SYNT the server cannot be reached; SYNA loading the key state failed; SYNB the server refused
 *   the new key and its backup; SYNF another window replaced the key meanwhile (409)
 * - RCFT fetching the backup failed; RCHS the server has no backup; RCCD the backup is damaged or
 *   another key's; RCFO storing the recovered key here failed
 * - TTFT fetching the invitation's temporary key (transit envelope) failed; TTHS handing the key
 *   over to the server (registering it as the user's own) failed; TTCD the invitation code does
 *   not open it; TTFO the temporary key's envelope is not valid or holds other keys; TTIV the
 *   signed invitation does not verify (not signed by an administrator of the pinned instance,
 *   expired, or for other temporary keys); TTRV an administrator's key reset does not verify (not
 *   signed by an administrator of the pinned instance, for another user or another key); TTRX the
 *   key reset has expired (the user asks an administrator for a new one)
 * - ANWH the code opened the key's backup with an instance root this browser pinned before, but
 *   the server no longer shows that root (it withholds it): not a wrong code, and refused
 */
export const KEY_ERROR_CODES = [
  "NCRP",
  "SNTL",
  "LINV",
  "KPM1",
  "KPM2",
  "KPM3",
  "KPM4",
  "BRCH",
  "BRCC",
  "UNSK",
  "UNEK",
  "UNIV",
  "UNRD",
  "KGAC",
  "KGAE",
  "KGAS",
  "SYNT",
  "SYNA",
  "SYNB",
  "SYNF",
  "RCFT",
  "RCHS",
  "RCCD",
  "RCFO",
  "TTFT",
  "TTHS",
  "TTCD",
  "TTFO",
  "TTIV",
  "TTRV",
  "TTRX",
  "ANWH",
] as const;

export type KeyErrorCode = (typeof KEY_ERROR_CODES)[number];

/** Codes about the key stored on this device: the popup offers to save (download) or clear it. */
export const LOCAL_KEY_CODES: readonly KeyErrorCode[] = ["LINV", "KPM1", "KPM2", "KPM3", "KPM4"];

/** Thrown inside the flow to leave for the error state with a code. */
export class KeyFlowError extends Error {
  readonly code: KeyErrorCode;
  constructor(code: KeyErrorCode, options: { cause?: unknown } = {}) {
    super(`key popup: ${code}`, options);
    this.name = "KeyFlowError";
    this.code = code;
  }
}

/** Runs a step, turning any failure into the given code (a KeyFlowError already thrown keeps its own). */
export async function step<T>(code: KeyErrorCode, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof KeyFlowError) throw error;
    throw new KeyFlowError(code, { cause: error });
  }
}
