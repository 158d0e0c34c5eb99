import type { PublicUser } from "@sealwork/contracts";
import {
  type AccountKeys,
  type SignedIdentity,
  type SignedKeyReset,
  accountPublicKeys,
  createResetIdentity,
  generateAccountKeys,
  keyId,
  unwrapAccountKeys,
  verifyIdentity,
  verifyKeyReset,
} from "@sealwork/crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { rootAndBob } from "../../lib/identity-test-support";
import type { UnlockedKeys } from "../../lib/unlocked-keys";

// The API and the client's trust answer from the fake below; texts are their keys.
const fake = vi.hoisted(() => ({
  bundles: new Map<number, unknown>(),
  anchors: [] as string[],
  admin: true,
  posted: [] as { id: number; body: { public_key: { sign_public: string; encrypt_public: string }; transit: unknown; reset: unknown } }[],
  refusal: null as unknown,
}));
vi.mock("../../lib/api", () => ({
  isApiError: (error: unknown) => (error as { status?: number })?.status !== undefined,
  call: vi.fn(async (key: string, options: { params: { id: number }; body: never }) => {
    if (key !== "POST /api/identities/{id}/reset") throw new Error(`unexpected call ${key}`);
    if (fake.refusal) throw fake.refusal;
    fake.posted.push({ id: options.params.id, body: options.body });
    return { user_id: options.params.id, keypair_id: 77, expires: 1234 };
  }),
}));
vi.mock("../../lib/trust", () => ({
  fetchBundle: async (uid: number) => fake.bundles.get(uid) ?? { chain: null, legacy: null },
  instanceAnchors: async () => fake.anchors,
  ownAdminIdentity: async () => (fake.admin ? {} : null),
}));
vi.mock("../../lib/i18n", () => ({ i18next: { t: (key: string) => key } }));
vi.mock("./i18n", () => ({ ns: "admin" }));
vi.mock("../../lib/error-text", () => ({ errorText: (error: { code?: string }, fallback: string) => (error.code ? `errors:${error.code}` : fallback) }));

const { resetKey, KeyResetError } = await import("./reset-key");

const DAY = 86_400_000;

/** The root (1) and Bob (2), invited by the root; the administrator resetting is the root. */
async function instance() {
  const world = await rootAndBob();
  fake.bundles.set(2, { chain: world.bobChain, legacy: null });
  fake.anchors = world.anchors;
  const me: UnlockedKeys = { uid: 1, keyId: 1, keys: world.rootKeys, publicKeys: await accountPublicKeys(world.rootKeys) };
  return { ...world, me };
}

const user = (id: number, email: string | null): PublicUser => ({
  id,
  name: `User ${id}`,
  email,
  phone: null,
  hasAdminRole: false,
  hasSuperAdminRole: false,
  totp_enabled: false,
  password_empty: false,
  disabled: false,
});

/** What the user's browser does with what was posted and the code shown: open the transit envelope, make the next record. */
async function takeOver(posted: (typeof fake.posted)[number], code: string, current: SignedIdentity | null): Promise<{ reset: SignedKeyReset; record: SignedIdentity; temp: AccountKeys }> {
  const temp = await unwrapAccountKeys(posted.body.transit as never, code);
  expect((await accountPublicKeys(temp)).signPublic).toBe(posted.body.public_key.sign_public);
  const reset = posted.body.reset as unknown as SignedKeyReset;
  const record = await createResetIdentity({ current, created: Date.now(), reset }, await generateAccountKeys(), temp);
  return { reset, record, temp };
}

beforeEach(() => {
  fake.bundles.clear();
  fake.posted = [];
  fake.admin = true;
  fake.refusal = null;
});

describe("an administrator resets a user's key", () => {
  it("posts temporary keys under a code shown only here, and a reset of the current key that the user can take over", async () => {
    const { me, rootChain, bob } = await instance();
    const made = await resetKey(me, user(2, "bob@example.org"));
    expect(made).toEqual({ code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{8}$/) as string, expires: 1234 });
    const [posted] = fake.posted;
    expect(posted!.id).toBe(2);
    expect(JSON.stringify(posted!.body)).not.toContain(made.code);
    const { reset, record } = await takeOver(posted!, made.code, bob);
    expect(reset.record).toMatchObject({ type: "key-reset", userId: 2, email: "bob@example.org", replaces: await keyId(bob.record), issuerUserId: 1 });
    expect(reset.record.expires).toBeGreaterThan(Date.now() + 6 * DAY);
    expect(reset.record.expires).toBeLessThanOrEqual(Date.now() + 7 * DAY);
    await verifyKeyReset(reset, 2, rootChain, { anchors: fake.anchors }, Date.now());
    const after = await verifyIdentity({ userId: 2, records: [bob, record], issuers: [rootChain], admins: [] }, { anchors: fake.anchors });
    expect(after.keys.at(-1)).toMatchObject({ seq: 1, reset: true });
  });

  it("resets a version 1 account without an identity from its address, as a birth", async () => {
    const { me } = await instance();
    fake.bundles.set(3, { chain: null, legacy: { id: 5 } });
    const made = await resetKey(me, user(3, "Vera@Example.org"));
    const { reset, record } = await takeOver(fake.posted[0]!, made.code, null);
    expect(reset.record).toMatchObject({ userId: 3, email: "vera@example.org", replaces: null });
    expect(record.record.seq).toBe(0);
  });

  it("refuses a chain that does not rest on the pinned anchors, an administrator without rights, and shows the server's refusal by its code", async () => {
    const { me } = await instance();
    const other = await instance();
    // The server serves Bob on another root than the one this browser pinned.
    fake.anchors = [await keyId(me.publicKeys)];
    fake.bundles.set(2, { chain: other.bobChain, legacy: null });
    await expect(resetKey(me, user(2, "bob@example.org"))).rejects.toThrow("admin:reset.untrusted");
    // A chain of someone else presented as Bob's.
    fake.bundles.set(2, { chain: { ...other.bobChain, userId: 1 }, legacy: null });
    await expect(resetKey(me, user(2, "bob@example.org"))).rejects.toThrow("admin:reset.untrusted");
    expect(fake.posted).toHaveLength(0);

    fake.admin = false;
    await expect(resetKey(other.me, user(2, "bob@example.org"))).rejects.toThrow("admin:reset.notAdmin");
    fake.admin = true;
    fake.anchors = [await keyId(other.me.publicKeys)];
    fake.bundles.set(2, { chain: other.bobChain, legacy: null });
    fake.refusal = Object.assign(new Error("refused"), { status: 409, code: "key_reset_own" });
    const error = await resetKey(other.me, user(2, "bob@example.org")).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(KeyResetError);
    expect((error as Error).message).toBe("errors:key_reset_own");
  });
});
