import { getSession, subscribeSession } from "./session";
import { subscribeUnlockedKeys, getUnlockedKeys } from "./unlocked-keys";

/**
 * The login password, for one check only: a secure code chosen right after signing in (fresh
 * keys, an invitation's takeover) must not be the same string (issue 11, item 9), because the
 * server sees the password at every login and would then hold the code that wraps the keys.
 *
 * Kept as a salted SHA-256 digest of its NFC form in this page's memory only (never stored), from
 * the sign-in until the account keys are loaded, a logout or another user's session. A reload in
 * between forgets it, and the check is then skipped (docs/protocol.md §9).
 */
interface Remembered {
  uid: number;
  salt: Uint8Array<ArrayBuffer>;
  digest: string;
}

let remembered: Promise<Remembered | null> | null = null;

async function digestOf(salt: Uint8Array<ArrayBuffer>, text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text.normalize("NFC"));
  const joined = new Uint8Array(salt.length + bytes.length);
  joined.set(salt);
  joined.set(bytes, salt.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", joined));
  joined.fill(0);
  bytes.fill(0);
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Called by the screens that sign in with a password (login, registration, first setup). */
export function rememberLoginPassword(uid: number, password: string): void {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  remembered = digestOf(salt, password).then(
    (digest) => ({ uid, salt, digest }),
    (error: unknown) => {
      // Without WebCrypto there are no keys to protect either; the key popup says NCRP.
      console.warn("Could not keep the login password's digest", error);
      return null;
    },
  );
}

/** Whether `code` is the signed-in user's login password (NFC forms compared). False when unknown. */
export async function isLoginPassword(code: string): Promise<boolean> {
  const known = await remembered;
  const uid = getSession()?.id;
  if (!known || uid === undefined || known.uid !== uid) return false;
  return (await digestOf(known.salt, code)) === known.digest;
}

export function forgetLoginPassword(): void {
  remembered = null;
}

// Needed only until the keys are loaded; never for another user.
subscribeUnlockedKeys(() => {
  if (getUnlockedKeys()) forgetLoginPassword();
});
subscribeSession(() => {
  if (!getSession()) forgetLoginPassword();
});
