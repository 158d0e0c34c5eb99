import { argon2Verify, argon2id } from "hash-wasm";

/**
 * Argon2id with OWASP's second recommended profile (19 MiB, 2 passes, 1 lane). The encoded
 * form carries its own parameters and salt, so they can be raised later without a migration.
 */
const PARAMS = { parallelism: 1, iterations: 2, memorySize: 19 * 1024, hashLength: 32 } as const;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return argon2id({ ...PARAMS, password: password.normalize("NFC"), salt, outputType: "encoded" });
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return argon2Verify({ password: password.normalize("NFC"), hash });
}

/** Same cost as a real check, so an unknown account is not told apart by timing. */
let decoy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword("decoy-password");
  await verifyPassword(password, await decoy);
}
