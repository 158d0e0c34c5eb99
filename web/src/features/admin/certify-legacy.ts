import type { PublicUser } from "@sealwork/contracts";
import { type SignedLegacyKey, accountFingerprint, certifyLegacyKey, createLegacyRule, identityKeys } from "@sealwork/crypto";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call, isApiError } from "../../lib/api";
import { verifyKeypair } from "../../lib/keypairs";
import { queryKeys } from "../../lib/query-keys";
import { fetchBundle, ownIdentity } from "../../lib/trust";
import type { UnlockedKeys } from "../../lib/unlocked-keys";

/**
 * Version 1 accounts to certify (docs/protocol.md §14.14): the accounts whose key has no identity
 * and no administrator's certificate, each with the key's account fingerprint (the person sees
 * theirs under Settings, to compare out of band); POST /api/identities/{id}/legacy with a
 * certificate this administrator signs for the key shown; and the root's legacy rule, published
 * once nobody is left to certify (POST /api/identities/legacy-rule). Which accounts to look at
 * comes from GET /api/identities/uncertified, a hint only: each key is fetched and checked here
 * before it is shown or certified.
 */

export interface LegacyAccount {
  user: PublicUser;
  keys: { encryptPublic: string; signPublic: string };
  fingerprint: string;
}

export interface LegacyState {
  /** This administrator's identity verifies as an administrator's: they can certify. */
  canCertify: boolean;
  /** They are the instance's root: they publish the rule. */
  isRoot: boolean;
  anchor: string;
  accounts: LegacyAccount[];
  rulePublished: boolean;
}

/** How many key look-ups run at once: an instance moving from version 1 may list many accounts, the server's other users come first. */
const LOOKUPS_AT_ONCE = 6;

const NONE: LegacyState = { canCertify: false, isRoot: false, anchor: "", accounts: [], rulePublished: false };

/**
 * The version 1 accounts without a certificate, when this administrator can certify: the server's
 * list says whom to look at (it could hide or invent someone), and each listed account's key is
 * fetched and checked as before (a v1 key without a certificate, with its own v1 signature).
 */
export async function legacyState(me: UnlockedKeys): Promise<LegacyState> {
  const mine = await ownIdentity(me);
  if (!mine?.admin) return NONE;
  const [{ legacy_rule }, { accounts: listed }] = await Promise.all([call("GET /api/identities/anchors"), call("GET /api/identities/uncertified")]);
  const found = await inTurns(
    listed.map((account) => account.user).filter((user) => user.id !== me.uid),
    LOOKUPS_AT_ONCE,
    legacyAccount,
  );
  const accounts = found.filter((account): account is LegacyAccount => account !== null);
  return { canCertify: true, isRoot: mine.keyId === mine.anchor, anchor: mine.anchor, accounts, rulePublished: legacy_rule !== null };
}

/** `run` over `items`, at most `width` at a time; the answers in the items' order. */
async function inTurns<T, R>(items: readonly T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return answers;
}

async function legacyAccount(user: PublicUser): Promise<LegacyAccount | null> {
  // Asked each time (not a bundle a group's batch handed over a moment ago): a certificate just stored must show.
  const { legacy } = await fetchBundle(user.id, true);
  if (!legacy || legacy.certificate) return null;
  const keys = { encryptPublic: legacy.encrypt_public, signPublic: legacy.sign_public };
  try {
    await verifyKeypair({ uid: user.id, encrypt_public: legacy.encrypt_public, sign_public: legacy.sign_public, timestamp: legacy.timestamp, signature: legacy.signature });
  } catch (error) {
    // A key without its owner's v1 signature is nothing to certify.
    console.warn(`The key of user ${user.id} does not carry its own signature`, error);
    return null;
  }
  return { user, keys, fingerprint: await accountFingerprint(keys) };
}

/** Signs and stores a certificate for the key shown for `account` (this administrator's key, in the instance of their anchor). */
export async function certifyLegacy(me: UnlockedKeys, state: LegacyState, account: LegacyAccount): Promise<void> {
  const certificate: SignedLegacyKey = await certifyLegacyKey(
    { userId: account.user.id, keys: account.keys, anchor: state.anchor, certified: Date.now() },
    await identityKeys(me.uid, me.keys),
  );
  try {
    await call("POST /api/identities/{id}/legacy", { params: { id: account.user.id }, body: { certificate: { ...certificate } } });
  } catch (error) {
    // Another administrator (or window) was first: certified all the same.
    if (!isApiError(error, 409) || error.code !== "legacy_certificate_exists") throw error;
  }
}

/** The root signs and publishes the rule that version 1 keys need a certificate (already published: fine). */
export async function publishLegacyRule(me: UnlockedKeys): Promise<void> {
  const rule = await createLegacyRule({ made: Date.now() }, await identityKeys(me.uid, me.keys));
  try {
    await call("POST /api/identities/legacy-rule", { body: { rule: { ...rule } } });
  } catch (error) {
    if (!isApiError(error, 409)) throw error;
  }
}

/** Asked for only when the administrator opens the section (`wanted`): it looks up the key of every account listed. */
export function useLegacyState(me: UnlockedKeys | null, wanted: boolean) {
  return useQuery({
    queryKey: queryKeys.admin.legacyKeys(),
    queryFn: () => legacyState(me!),
    enabled: me !== null && wanted,
  });
}

/**
 * Certifies the accounts given (one, or all shown), then, when that leaves nobody uncertified
 * and this administrator is the root, publishes the legacy rule.
 */
export function useCertifyLegacy(me: UnlockedKeys | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ state, accounts }: { state: LegacyState; accounts: LegacyAccount[] }) => {
      for (const account of accounts) await certifyLegacy(me!, state, account);
      const left = state.accounts.filter((account) => !accounts.includes(account));
      if (left.length === 0 && state.isRoot && !state.rulePublished) await publishLegacyRule(me!);
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.admin.legacyKeys() }),
  });
}

export function usePublishLegacyRule(me: UnlockedKeys | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => publishLegacyRule(me!),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.admin.legacyKeys() }),
  });
}
