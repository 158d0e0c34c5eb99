import { randomBytes } from "node:crypto";
import { VerificationCode, resetConfig } from "@sealwork/core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { http, mailedCodes, outboxFor, uniqueEmail, useRuntime } from "../support/api";
import { burst, fire, freshAddress, tally, type Hit } from "../support/attack";
import { pickupBody } from "../support/pickups";
import { spawnRuntime, type SpawnedRuntime } from "../support/runtime";
import { codeAt, currentStep, enableTotp } from "../support/totp";
import { PASSWORD, createSession, createUser } from "../support/users";

/**
 * Every limit against a hostile client: many more requests than the limit allows, all at once,
 * each on a connection of its own. At most `max` of them may be evaluated (a password checked, a
 * code compared, a lookup answered 404, a mail sent); the rest must be 429. A runtime of its own
 * with small limits keeps this fast; per-client limits are told apart from per-account ones by
 * sending from other loopback addresses.
 */
const LIMITS = {
  LOGIN_MAX_FAILURES: 3,
  LOGIN_MAX_FAILURES_PER_IP: 5,
  VERIFICATION_MAX_CODES: 2,
  PICKUP_MAX_PER_HOUR: 3,
  BACKUP_MAX_SAVES_PER_HOUR: 4,
};
const TOO_MANY = "429 too_many_attempts";

let own: SpawnedRuntime;

beforeAll(async () => {
  const settings = Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)]));
  own = await spawnRuntime({ env: { ...settings, ADMIN_EMAIL: "limits.admin@example.ch", ADMIN_PASSWORD: "limits-admin-pw-1" } });
  // This file's helpers and domain calls go to that runtime (its table, its outbox).
  Object.assign(process.env, own.env, settings);
  resetConfig();
  useRuntime(own.url);
}, 120_000);

afterAll(async () => {
  useRuntime(undefined);
  for (const name of Object.keys(LIMITS)) delete process.env[name];
  Object.assign(process.env, inject("runtime").env);
  resetConfig();
  await own?.stop();
});

/** Every hit is either one of `evaluated` (at most `max`, at least one) or the refusal (a 429). */
function expectLimited(hits: Hit[], evaluated: string, max: number, refused = TOO_MANY) {
  const counts = tally(hits);
  expect(Object.keys(counts).filter((k) => k !== evaluated && k !== refused), JSON.stringify(counts)).toEqual([]);
  expect(counts[evaluated] ?? 0, JSON.stringify(counts)).toBeGreaterThan(0);
  expect(counts[evaluated] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(max);
  expect(counts[refused] ?? 0).toBe(hits.length - (counts[evaluated] ?? 0));
  return counts[evaluated] ?? 0;
}

const digest = () => randomBytes(32).toString("base64url");
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

const codeFrom = async (address: string, pattern: RegExp) => (await mailedCodes(address, pattern))[0]!;

describe("login", () => {
  it("30 wrong passwords for one account at once: at most LOGIN_MAX_FAILURES checked, the rest 429, then the right one waits too", async () => {
    const user = await createUser();
    const hits = await burst(30, (i) => ({ method: "POST", path: `/api/users/${user.id}/login`, body: { password: `wrong-${i}` }, from: freshAddress() }));
    expectLimited(hits, "403 password_incorrect", LIMITS.LOGIN_MAX_FAILURES);
    const right = await fire({ method: "POST", path: `/api/users/${user.id}/login`, body: { password: PASSWORD }, from: freshAddress() });
    expect(right).toMatchObject({ status: 429, body: { message: "You are trying too many times - please wait one minute before submitting again." } });
  });

  it("a successful login clears the account's failures", async () => {
    const user = await createUser();
    const from = freshAddress();
    for (let i = 0; i < LIMITS.LOGIN_MAX_FAILURES - 1; i++) expect((await fire({ method: "POST", path: `/api/users/${user.id}/login`, body: { password: "wrong-pw-1" }, from })).status).toBe(403);
    expect((await fire({ method: "POST", path: `/api/users/${user.id}/login`, body: { password: PASSWORD }, from })).status).toBe(200);
    const hits = await burst(10, () => ({ method: "POST", path: `/api/users/${user.id}/login`, body: { password: "wrong-pw-2" }, from: freshAddress() }));
    // Without the clearing only one more failure would have been checked.
    expect(expectLimited(hits, "403 password_incorrect", LIMITS.LOGIN_MAX_FAILURES)).toBeGreaterThan(1);
  });

  it("30 wrong logins for different accounts from one client: at most LOGIN_MAX_FAILURES_PER_IP checked", async () => {
    const from = freshAddress();
    const hits = await burst(30, (i) => ({ method: "POST", path: `/api/users/${900_000_000 + i}/login`, body: { password: "whatever-pw-1" }, from }));
    expectLimited(hits, "403 password_incorrect", LIMITS.LOGIN_MAX_FAILURES_PER_IP);
  });

  it("30 unknown contacts looked up at once from one client: at most LOGIN_MAX_FAILURES_PER_IP answered 404; known ones do not count", async () => {
    const from = freshAddress();
    const known = await createUser();
    for (let i = 0; i < LIMITS.LOGIN_MAX_FAILURES_PER_IP + 3; i++) {
      expect((await fire({ method: "GET", path: `/api/users?lookup=${encodeURIComponent(known.email)}`, from })).status).toBe(200);
    }
    const hits = await burst(30, () => ({ method: "GET", path: `/api/users?lookup=${encodeURIComponent(uniqueEmail("nobody"))}`, from }));
    expectLimited(hits, "404 contact_unknown", LIMITS.LOGIN_MAX_FAILURES_PER_IP);
  });
});

describe("pickups", () => {
  it("150 unknown pickup codes at once from one client: at most LOGIN_MAX_FAILURES_PER_IP answered 404", async () => {
    const from = freshAddress();
    const hits = await burst(150, () => ({ method: "GET", path: `/api/pickup/${digest()}?meta=1`, from }));
    expectLimited(hits, "404 pickup_not_found", LIMITS.LOGIN_MAX_FAILURES_PER_IP);
  });

  it("30 recoveries of unknown codes at once from one client: at most LOGIN_MAX_FAILURES_PER_IP answered 404", async () => {
    const from = freshAddress();
    const hits = await burst(30, () => ({ method: "POST", path: `/api/pickup/recover/${digest()}`, body: { auth: digest() }, from }));
    expectLimited(hits, "404 pickup_not_found", LIMITS.LOGIN_MAX_FAILURES_PER_IP);
  });

  it("12 pickups created at once by one member: at most PICKUP_MAX_PER_HOUR made and mailed", async () => {
    const creator = await createSession();
    const email = uniqueEmail("flooded");
    const bodies: Record<string, unknown>[] = [];
    for (let i = 0; i < 12; i++) bodies.push((await pickupBody(creator, { email })).body);
    const hits = await burst(bodies.length, (i) => ({ method: "POST", path: "/api/pickup", body: bodies[i], token: creator.api_token, from: freshAddress() }));
    const made = expectLimited(hits, "200", LIMITS.PICKUP_MAX_PER_HOUR, "429 pickup_limit");
    await outboxFor(email);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await outboxFor(email, { wait: false })).length).toBe(made);
  });
});

describe("the backup store", () => {
  it("20 saves at once from one client: at most BACKUP_MAX_SAVES_PER_HOUR stored", async () => {
    const from = freshAddress();
    const hits = await burst(20, () => ({ method: "POST", path: "/api/backup/save", body: { filename: digest(), contents: "ciphertext" }, from }));
    expectLimited(hits, "200", LIMITS.BACKUP_MAX_SAVES_PER_HOUR);
  });

  it("30 loads of unknown names at once from one client: at most LOGIN_MAX_FAILURES_PER_IP answered 404; found ones do not count", async () => {
    const from = freshAddress();
    const filename = digest();
    expect((await fire({ method: "POST", path: "/api/backup/save", body: { filename, contents: "ciphertext" }, from: freshAddress() })).status).toBe(200);
    for (let i = 0; i < LIMITS.LOGIN_MAX_FAILURES_PER_IP + 3; i++) expect((await fire({ method: "POST", path: "/api/backup/load", body: { filename }, from })).status).toBe(200);
    const hits = await burst(30, () => ({ method: "POST", path: "/api/backup/load", body: { filename: digest() }, from }));
    expectLimited(hits, "404 backup_not_found", LIMITS.LOGIN_MAX_FAILURES_PER_IP);
  });
});

describe("two-factor login", () => {
  it("20 wrong codes at once finalizing a setup: at most LOGIN_MAX_FAILURES checked", async () => {
    const me = await createSession();
    const start = await http<{ secret: string }>("POST", "/api/verification/totpSetup", { token: me.api_token, body: {} });
    const wrong = wrongCode(codeAt(start.body.secret, currentStep()));
    const hits = await burst(20, () => ({ method: "POST", path: "/api/verification/totpSetup", token: me.api_token, body: { totp_secret: start.body.secret, totp_verify: wrong }, from: freshAddress() }));
    expectLimited(hits, "403 totp_incorrect", LIMITS.LOGIN_MAX_FAILURES);
  });

  it("20 wrong codes at once switching 2FA off: at most LOGIN_MAX_FAILURES checked", async () => {
    const me = await createSession();
    const { secret } = await enableTotp(me.api_token);
    const wrong = wrongCode(codeAt(secret, currentStep()));
    const hits = await burst(20, () => ({ method: "POST", path: "/api/verification/totpDestroy", token: me.api_token, body: { totp_auth: wrong }, from: freshAddress() }));
    expectLimited(hits, "403 totp_incorrect", LIMITS.LOGIN_MAX_FAILURES);
  });
});

describe("verification codes (registration, forgotten password)", () => {
  const LIMITED = "429 verification_limit";
  const register = (contact: string, vericode: string) => ({
    method: "POST",
    path: "/api/users/register",
    body: { name: "Eve", password: "new-password-1", contact, vericode },
    from: freshAddress(),
  });
  const reset = (contact: string, vericode: string, extra: Record<string, unknown> = {}) => ({
    method: "POST",
    path: "/api/users/reset",
    body: { contact, vericode, password: "brand-new-pw-1", ...extra },
    from: freshAddress(),
  });

  it("20 registration-code requests for one account at once: at most VERIFICATION_MAX_CODES codes sent", async () => {
    const invited = await createUser({ password: null });
    const hits = await burst(20, () => ({ method: "POST", path: "/api/verification/register", body: { uid: invited.id, contact: invited.email }, from: freshAddress() }));
    const sent = expectLimited(hits, "200", LIMITS.VERIFICATION_MAX_CODES, LIMITED);
    await outboxFor(invited.email);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await outboxFor(invited.email, { wait: false })).length).toBe(sent);
  });

  it("30 wrong registration codes at once: at most MAX_TRIES compared; then neither the right code nor a new one gets in", async () => {
    const invited = await createUser({ password: null });
    expect((await http("POST", "/api/verification/register", { body: { uid: invited.id, contact: invited.email } })).status).toBe(200);
    const code = await codeFrom(invited.email, /verification code is (\d{6})/);
    const hits = await burst(30, () => register(invited.email, wrongCode(code)));
    expectLimited(hits, "403 vericode_incorrect", VerificationCode.MAX_TRIES, LIMITED);
    expect(await fire(register(invited.email, code))).toMatchObject({ status: 429, body: { code: "verification_limit" } });
    // A new code does not bring new tries (it did: each code came with five of its own).
    expect((await http("POST", "/api/verification/register", { body: { uid: invited.id, contact: invited.email } })).status).toBe(200);
    const [second] = await mailedCodes(invited.email, /verification code is (\d{6})/, 2);
    expect(await fire(register(invited.email, second!))).toMatchObject({ status: 429, body: { code: "verification_limit" } });
    expect((await http("GET", `/api/users?lookup=${encodeURIComponent(invited.email)}`)).body).toMatchObject({ password_empty: true });
  });

  it("30 registrations for unknown contacts at once from one client: at most LOGIN_MAX_FAILURES_PER_IP evaluated", async () => {
    const from = freshAddress();
    const hits = await burst(30, () => ({ ...register(uniqueEmail("nobody"), "123456"), from }));
    expectLimited(hits, "422 registration_invalid", LIMITS.LOGIN_MAX_FAILURES_PER_IP);
  });

  it("20 forgotten-password requests for one account at once: at most VERIFICATION_MAX_CODES codes sent", async () => {
    const user = await createUser();
    const hits = await burst(20, () => ({ method: "POST", path: "/api/verification/forgot", body: { uid: user.id, contact: user.email }, from: freshAddress() }));
    const sent = expectLimited(hits, "200", LIMITS.VERIFICATION_MAX_CODES, LIMITED);
    await outboxFor(user.email);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await outboxFor(user.email, { wait: false })).length).toBe(sent);
  });

  it("20 forgotten-password requests at once from one client: at most LOGIN_MAX_FAILURES_PER_IP accepted", async () => {
    const from = freshAddress();
    const hits = await burst(20, (i) => ({ method: "POST", path: "/api/verification/forgot", body: { uid: 800_000_000 + i, contact: uniqueEmail("nobody") }, from }));
    expectLimited(hits, "200", LIMITS.LOGIN_MAX_FAILURES_PER_IP);
  });

  it("30 wrong reset codes at once: at most MAX_TRIES compared; then neither the right code nor a new one gets in, and the password stays", async () => {
    const user = await createUser();
    expect((await http("POST", "/api/verification/forgot", { body: { uid: user.id, contact: user.email } })).status).toBe(200);
    const code = await codeFrom(user.email, /set a new password is (\d{6})/);
    const hits = await burst(30, () => reset(user.email, wrongCode(code)));
    expectLimited(hits, "403 vericode_incorrect", VerificationCode.MAX_TRIES, LIMITED);
    expect(await fire(reset(user.email, code))).toMatchObject({ status: 429, body: { code: "verification_limit" } });
    expect((await http("POST", "/api/verification/forgot", { body: { uid: user.id, contact: user.email } })).status).toBe(200);
    const [second] = await mailedCodes(user.email, /set a new password is (\d{6})/, 2);
    expect(await fire(reset(user.email, second!))).toMatchObject({ status: 429, body: { code: "verification_limit" } });
    expect((await fire({ method: "POST", path: `/api/users/${user.id}/login`, body: { password: PASSWORD }, from: freshAddress() })).status).toBe(200);
  });

  it("20 wrong 2FA codes at once behind the right reset code: at most MAX_TRIES checked", async () => {
    const me = await createSession();
    const { secret } = await enableTotp(me.api_token);
    expect((await http("POST", "/api/verification/forgot", { body: { uid: me.id, contact: me.email } })).status).toBe(200);
    const code = await codeFrom(me.email!, /set a new password is (\d{6})/);
    const wrong = wrongCode(codeAt(secret, currentStep()));
    const hits = await burst(20, () => reset(me.email!, code, { totp_auth: wrong }));
    expectLimited(hits, "403 totp_incorrect", VerificationCode.MAX_TRIES, LIMITED);
  });
});
