import {
  type AccountKeys,
  type SignedIdentity,
  type SignedKeyReset,
  accountPublicKeys,
  createKeyReset,
  createRootIdentity,
  generateAccountKeys,
  identityKeys,
  verifyIdentity,
  wrapAccountKeys,
} from "@sealwork/crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { rootAndBob } from "../../lib/identity-test-support";

// The API and the anchor and bundle look-ups answer from the fake below.
const fake = vi.hoisted(() => ({
  bundles: new Map<number, unknown>(),
  anchors: [] as string[],
  remembered: [] as string[],
  reset: null as unknown,
}));
vi.mock("../../lib/api", () => ({
  call: vi.fn(async (key: string) => {
    if (key === "GET /api/identities/invitation") return { invitation: null, reset: fake.reset };
    throw new Error(`unexpected call ${key}`);
  }),
}));
vi.mock("../../lib/trust", () => ({
  fetchAnchors: async () => fake.anchors,
  fetchBundle: async (uid: number) => fake.bundles.get(uid) ?? { chain: null, legacy: null },
}));
vi.mock("../../lib/session", () => ({ getSession: () => null }));
vi.mock("../../lib/pins", () => ({ browserAnchors: () => fake.remembered }));

const { backupAnchors, openBackup, pendingReset, takeoverIdentity } = await import("./identity-steps");
const { WRONG_CODE } = await import("./open-envelope");
const { KeyFlowError } = await import("./key-errors");

const DAY = 86_400_000;

/** The root (1), who resets the key of Bob (2, invited by the root): the reset, and the temporary keys its code opens. */
async function resetBob(options: { expires?: number; issuer?: "root" | "stranger" } = {}) {
  const { rootKeys, rootChain, bob, bobChain, anchors } = await rootAndBob();
  fake.bundles.set(1, { chain: { ...rootChain, issuers: [], admins: [] }, legacy: null });
  fake.bundles.set(2, { chain: bobChain, legacy: null });
  fake.anchors = anchors;
  // A stranger: a root of another instance, whose reset the anchors here do not back.
  const issuerKeys = options.issuer === "stranger" ? await generateAccountKeys() : rootKeys;
  if (options.issuer === "stranger") {
    fake.bundles.set(1, { chain: { userId: 1, records: [await createRootIdentity({ userId: 1, email: "root@example.org", created: Date.now() }, issuerKeys)], issuers: [], admins: [] }, legacy: null });
  }
  const temp = await generateAccountKeys();
  const reset = await createKeyReset({ userId: 2, current: bob, temp: await accountPublicKeys(temp), expires: options.expires ?? Date.now() + 7 * DAY }, await identityKeys(1, issuerKeys));
  fake.reset = reset;
  return { rootChain, bob, reset, temp };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(KeyFlowError);
  return (error as InstanceType<typeof KeyFlowError>).code;
}

beforeEach(() => {
  fake.bundles.clear();
  fake.reset = null;
  fake.remembered = [];
});

describe("taking over a key an administrator reset", () => {
  it("words the popup for a pending reset, and not for an invitation", async () => {
    expect(await pendingReset()).toBeNull();
    const { reset } = await resetBob();
    expect(await pendingReset()).toEqual(reset);
  });

  it("makes the record that continues the user's chain, certified by the reset, with the anchors fetched anew", async () => {
    const { rootChain, bob, temp } = await resetBob();
    const fresh: AccountKeys = await generateAccountKeys();
    const { identity, anchors } = await takeoverIdentity(2, fresh, temp);
    expect(anchors).toEqual(fake.anchors);
    expect(identity!.record).toMatchObject({ userId: 2, seq: 1, email: "bob@example.org", certifiedBy: { kind: "reset" } });
    expect(identity!.record.signPublic).toBe((await accountPublicKeys(fresh)).signPublic);
    const verified = await verifyIdentity({ userId: 2, records: [bob, identity as SignedIdentity], issuers: [rootChain], admins: [] }, { anchors: fake.anchors });
    expect(verified.keys.map((key) => key.reset ?? false)).toEqual([false, true]);
  });

  it("refuses an expired reset (TTRX) and one its issuer's chain does not back (TTRV)", async () => {
    const expired = await resetBob({ expires: Date.now() - 1000 });
    expect(await failure(pendingReset())).toBe("TTRX");
    expect(await failure(takeoverIdentity(2, await generateAccountKeys(), expired.temp))).toBe("TTRX");

    const stranger = await resetBob({ issuer: "stranger" });
    expect(await failure(takeoverIdentity(2, await generateAccountKeys(), stranger.temp))).toBe("TTRV");
    // Another user's reset, or a reset whose signed fields were changed.
    const honest = await resetBob();
    fake.reset = { ...honest.reset, record: { ...honest.reset.record, userId: 3 } } satisfies SignedKeyReset;
    expect(await failure(takeoverIdentity(2, await generateAccountKeys(), honest.temp))).toBe("TTRV");
    fake.reset = { ...honest.reset, record: { ...honest.reset.record, expires: honest.reset.record.expires + DAY } } satisfies SignedKeyReset;
    expect(await failure(takeoverIdentity(2, await generateAccountKeys(), honest.temp))).toBe("TTRV");
    fake.reset = { nonsense: true };
    expect(await failure(pendingReset())).toBe("TTRV");
  });
});

describe("opening a backup bound to the instance's root", () => {
  const CODE = "correct horse battery";
  const FAST = { memoryKiB: 1024, iterations: 1, parallelism: 1 };
  const codes = { damaged: "KPM2", malformed: "LINV" } as const;

  /** Keys wrapped under CODE, bound to the root's key id; the root's id. */
  async function boundBackup() {
    const { anchors } = await rootAndBob();
    const envelope = await wrapAccountKeys(await generateAccountKeys(), CODE, FAST, { anchor: anchors[0] });
    return { envelope, root: anchors[0]! };
  }

  it("tries the roots shown and those this browser remembers, each once", async () => {
    fake.anchors = ["shown-a", "both"];
    fake.remembered = ["both", "remembered-b"];
    expect(await backupAnchors()).toEqual({ shown: ["shown-a", "both"], tried: ["shown-a", "both", "remembered-b"] });
  });

  it("pins the root it opens with when the server shows it", async () => {
    const { envelope, root } = await boundBackup();
    fake.anchors = [root];
    expect(await openBackup(envelope, CODE, codes)).toMatchObject({ pinned: [root] });
  });

  it("refuses, as ANWH and not as a wrong code, a right code whose root the server withholds from a browser that remembers it", async () => {
    const { envelope, root } = await boundBackup();
    fake.anchors = [];
    fake.remembered = [root];
    expect(await failure(openBackup(envelope, CODE, codes))).toBe("ANWH");
    // A wrong code stays a wrong code, and a browser that remembers no anchor cannot tell the two apart.
    expect(await openBackup(envelope, "wrong horse battery", codes)).toBe(WRONG_CODE);
    fake.remembered = [];
    expect(await openBackup(envelope, CODE, codes)).toBe(WRONG_CODE);
  });

  it("takes a backup bound to no root as before", async () => {
    const envelope = await wrapAccountKeys(await generateAccountKeys(), CODE, FAST);
    fake.anchors = [];
    fake.remembered = ["remembered-b"];
    expect(await openBackup(envelope, CODE, codes)).toMatchObject({ pinned: undefined });
  });
});
