import { keypairRecord, type NewKeypair, type Session } from "@sealwork/contracts";
import { type AccountKeys, accountPublicKeys, generateAccountKeys, signRecord, wrapAccountKeys } from "@sealwork/crypto";
import { http } from "./api";

/** Argon2id at the protocol's floor: tests wrap many keys and need not wait 0.4 s for each. */
export const FAST_ARGON2ID = { memoryKiB: 1024, iterations: 1, parallelism: 1 } as const;
export const TEST_CODE = "test-secure-code-1";
/** The code the browser tests give accounts (test/e2e/helpers.ts): keys made here for an account a browser may open use it. */
export const BROWSER_SECURE_CODE = "e2e-secure-code-1";

/** A registration body made the way the web client makes it (generate, wrap, sign). */
export async function newKeyBody(
  uid: number,
  lastKey: number | null,
  options: { code?: string; timestamp?: number; keys?: AccountKeys; anchor?: string } = {},
): Promise<{ body: NewKeypair; keys: AccountKeys }> {
  const keys = options.keys ?? (await generateAccountKeys());
  const pub = await accountPublicKeys(keys);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const backup = await wrapAccountKeys(keys, options.code ?? TEST_CODE, FAST_ARGON2ID, { anchor: options.anchor });
  const signature = await signRecord(keys.sign.privateKey, keypairRecord({ uid, ...pub, timestamp }));
  return {
    body: {
      encrypt_public: pub.encryptPublic,
      sign_public: pub.signPublic,
      timestamp,
      signature: { ...signature },
      backup: { ...backup },
      last_key: lastKey,
    },
    keys,
  };
}

/** Registers a new key for the session's user; returns the key's id. */
export async function registerKey(session: Pick<Session, "id" | "api_token">, lastKey: number | null = null, code?: string): Promise<number> {
  const { body } = await newKeyBody(session.id, lastKey, { code });
  const reply = await http<{ id: number }>("POST", "/api/keypairs", { token: session.api_token, body });
  if (reply.status !== 200) throw new Error(`registering a key failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id;
}
