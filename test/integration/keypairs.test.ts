import { randomBytes } from "node:crypto";
import { Keypair } from "@sealwork/core";
import { keypairRecord } from "@sealwork/contracts";
import { backupNameDigest, generateAccountKeys, importSigningPublicKey, signRecord, unwrapAccountKeys, verifyRecord } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { shareGroup } from "../support/conversations";
import { TEST_CODE, newKeyBody, registerKey } from "../support/keys";
import { createSession } from "../support/users";

type Json = Record<string, unknown>;

describe("account keys: registering and replacing", () => {
  it("starts with no key, registers one, and shows it with the instance and the server time", async () => {
    const me = await createSession();
    const before = await http<Json>("GET", "/api/keypairs", { token: me.api_token });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ keypair: null, schemas: [], actions: [], series: [], instance: { name: expect.any(String) } });
    // Whether secure codes are off is the SPA build's setting: the API says nothing about it (issue 11, item 3).
    expect(before.body.instance).not.toHaveProperty("disableSecurecode");
    expect(before.body.instance).not.toHaveProperty("defaultSecurecode");
    expect(Math.abs((before.body.now as number) - Date.now() / 1000)).toBeLessThan(60);

    const { body } = await newKeyBody(me.id, null);
    const created = await http<Json>("POST", "/api/keypairs", { token: me.api_token, body });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      uid: me.id,
      type: "public",
      valid: true,
      encrypt_public: body.encrypt_public,
      sign_public: body.sign_public,
      timestamp: body.timestamp,
      backup: { kind: "secure-code-wrap", memoryKiB: 1024, iterations: 1, parallelism: 1 },
    });
    expect(Math.abs((created.body.sentinel as number) - Date.now() / 1000)).toBeLessThan(60);

    const after = await http<{ keypair: Json }>("GET", "/api/keypairs", { token: me.api_token });
    expect(after.body.keypair).toEqual(created.body);
    // The state never carries the backup's ciphertext; only its owner's recover call does.
    expect(JSON.stringify(after.body)).not.toContain(body.backup.ct as string);
  });

  it("replaces the current key only when last_key names it; the older key becomes invalid", async () => {
    const me = await createSession();
    const first = await registerKey(me);
    const again = await newKeyBody(me.id, null);
    expect(await http("POST", "/api/keypairs", { token: me.api_token, body: again.body })).toMatchObject({ status: 409, body: { code: "keypair_stale" } });
    const wrong = await newKeyBody(me.id, first + 1000);
    expect((await http("POST", "/api/keypairs", { token: me.api_token, body: wrong.body })).status).toBe(409);

    const second = await registerKey(me, first);
    expect(second).toBeGreaterThan(first);
    const old = await http<Json>("GET", `/api/keypairs/${first}`, { token: me.api_token });
    expect(old.body).toMatchObject({ metadata: { uid: me.id, valid: false } });
    const current = await http<Json>("GET", `/api/keypairs/${second}`, { token: me.api_token });
    expect(current.body).toMatchObject({ metadata: { uid: me.id, valid: true, type: "public" } });
    // A stale last_key (the first key again) is refused.
    const stale = await newKeyBody(me.id, first);
    expect((await http("POST", "/api/keypairs", { token: me.api_token, body: stale.body })).status).toBe(409);
  });

  it("lets exactly one of two racing windows replace the key", async () => {
    const me = await createSession();
    const first = await registerKey(me);
    const bodies = await Promise.all([newKeyBody(me.id, first), newKeyBody(me.id, first), newKeyBody(me.id, first)]);
    const replies = await Promise.all(bodies.map(({ body }) => http<Json>("POST", "/api/keypairs", { token: me.api_token, body })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const winner = replies.find((r) => r.status === 200)!;
    const state = await http<{ keypair: Json }>("GET", "/api/keypairs", { token: me.api_token });
    expect(state.body.keypair.id).toBe(winner.body.id);
  });

  it("refuses bad envelopes, keys, signatures and clocks with 422", async () => {
    const me = await createSession();
    const { body } = await newKeyBody(me.id, null);
    const other = await newKeyBody(me.id, null);
    const post = (changes: Json) => http<Json>("POST", "/api/keypairs", { token: me.api_token, body: { ...body, ...changes } });
    const cases: [Json, string][] = [
      [{ backup: { ...body.backup, v: 2 } }, "backup_invalid"],
      [{ backup: { ...body.backup, extra: 1 } }, "backup_invalid"],
      [{ backup: { ...body.backup, ct: "AAAA" } }, "backup_invalid"],
      [{ backup: body.signature }, "backup_invalid"],
      [{ backup: other.body.backup }, "backup_invalid"],
      [{ signature: body.backup }, "keypair_signature_invalid"],
      [{ signature: other.body.signature }, "keypair_signature_invalid"],
      [{ timestamp: body.timestamp + 1 }, "keypair_signature_invalid"],
      [{ timestamp: body.timestamp - 3 * 24 * 3600 }, "clock_skew"],
      [{ encrypt_public: "A".repeat(43) }, "backup_invalid"],
      [{ encrypt_public: "not a key" }, "validation"],
    ];
    for (const [changes, code] of cases) {
      const reply = await post(changes);
      expect(reply, JSON.stringify(changes).slice(0, 80)).toMatchObject({ status: 422, body: { code } });
    }
    // Signed by the right key, but for another user: the record names its subject.
    const keys = await generateAccountKeys();
    const foreign = await newKeyBody(me.id + 1, null, { keys });
    const mine = await newKeyBody(me.id, null, { keys });
    expect(await post({ ...mine.body, signature: foreign.body.signature })).toMatchObject({ status: 422, body: { code: "keypair_signature_invalid" } });
    expect((await http<Json>("GET", "/api/keypairs", { token: me.api_token })).body.keypair).toBeNull();
  });

  it("stores a signature that clients can verify, over the record of the user's keys", async () => {
    const me = await createSession();
    const id = await registerKey(me);
    const reply = await http<{ encrypt_public: string; sign_public: string; signature: Json; metadata: { uid: number; timestamp: number } }>("GET", `/api/keypairs/${id}`, { token: me.api_token });
    const { encrypt_public, sign_public, signature, metadata } = reply.body;
    const record = keypairRecord({ uid: metadata.uid, encryptPublic: encrypt_public, signPublic: sign_public, timestamp: metadata.timestamp });
    await verifyRecord(await importSigningPublicKey(sign_public), record, signature as never);
  });
});

describe("account keys: lookups of other users", () => {
  it("answers fetch_only with the id, validity, sentinel and server time", async () => {
    const me = await createSession();
    const other = await createSession();
    const none = await http<Json>("GET", `/api/keypairs?fetch_only=1&uid=${other.id}`, { token: me.api_token });
    expect(none.body).toMatchObject({ id: null, valid: false, sentinel: null, now: expect.any(Number) });
    const id = await registerKey(other);
    const found = await http<Json>("GET", `/api/keypairs?fetch_only=1&uid=${other.id}`, { token: me.api_token });
    expect(found.body).toEqual({ id, valid: true, sentinel: expect.any(Number), now: expect.any(Number) });
    expect(Object.keys(found.body).sort()).toEqual(["id", "now", "sentinel", "valid"]);

    expect((await http("GET", `/api/keypairs?fetch_only=1&uid=999999999`, { token: me.api_token })).status).toBe(404);
    expect((await http("GET", `/api/keypairs?fetch_only=1`, { token: me.api_token })).status).toBe(422);
    expect((await http("GET", `/api/keypairs?fetch_only=1&uid=${other.id}`)).status).toBe(401);
  });

  it("lists the targets to seal for: a user's current valid key; a group's to its members only", async () => {
    const me = await createSession();
    const other = await createSession();
    expect((await http("GET", `/api/keypairs/target?type=user&id=${other.id}`, { token: me.api_token })).body).toEqual([]);
    const first = await registerKey(other);
    const second = await registerKey(other, first);
    const targets = await http<Json[]>("GET", `/api/keypairs/target?type=user&id=${other.id}`, { token: me.api_token });
    expect(targets.body).toHaveLength(1);
    expect(targets.body[0]).toMatchObject({ user_id: other.id, id: second, encrypt_public: expect.any(String) });
    // Groups: test/integration/groups.test.ts; someone outside a group learns nothing of its members.
    const group = await shareGroup(other);
    expect((await http("GET", `/api/keypairs/target?type=group&id=${group}`, { token: me.api_token })).status).toBe(403);
    expect((await http("GET", `/api/keypairs/target?type=team&id=1`, { token: me.api_token })).status).toBe(422);

    await Keypair.invalidate(other.id);
    expect((await http("GET", `/api/keypairs/target?type=user&id=${other.id}`, { token: me.api_token })).body).toEqual([]);
    expect((await http<Json>("GET", `/api/keypairs?fetch_only=1&uid=${other.id}`, { token: me.api_token })).body).toMatchObject({ id: second, valid: false });
    // The owner replaces an invalidated key by naming it.
    const third = await registerKey(other, second);
    expect((await http<Json>("GET", "/api/keypairs", { token: other.api_token })).body).toMatchObject({ keypair: { id: third, valid: true } });
  });

  it("answers 404 for an unknown key id", async () => {
    const me = await createSession();
    expect(await http("GET", "/api/keypairs/999999999", { token: me.api_token })).toMatchObject({ status: 404, body: { code: "keypair_not_found", message: "Error retrieving keypair data" } });
  });
});

describe("account keys: recovering the backup", () => {
  it("gives the owner their encrypted backup, which opens with the code", async () => {
    const me = await createSession();
    const { body } = await newKeyBody(me.id, null);
    const created = await http<{ id: number }>("POST", "/api/keypairs", { token: me.api_token, body });
    const reply = await http<{ id: number; recover: Json }>("POST", `/api/keypairs/${created.body.id}/recover`, { token: me.api_token });
    expect(reply.status).toBe(200);
    expect(reply.body.recover).toEqual(body.backup);
    const keys = await unwrapAccountKeys(reply.body.recover as never, TEST_CODE);
    expect(keys.sign.publicKey.type).toBe("public");
  });

  it("refuses another user's backup with 403, and a stranger without a token with 401", async () => {
    const owner = await createSession();
    const stranger = await createSession();
    const admin = await createSession({ admin: true, superAdmin: true });
    const id = await registerKey(owner);
    expect(await http("POST", `/api/keypairs/${id}/recover`, { token: stranger.api_token })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect((await http("POST", `/api/keypairs/${id}/recover`, { token: admin.api_token })).status).toBe(403);
    expect((await http("POST", `/api/keypairs/${id}/recover`)).status).toBe(401);
    expect((await http("POST", `/api/keypairs/999999999/recover`, { token: owner.api_token })).status).toBe(404);
  });
});

describe("the backup store (pickups, invitations)", () => {
  const digest = () => backupNameDigest(`test-${randomBytes(8).toString("hex")}`);

  it("saves once under a name digest, loads it without a login, and refuses a second save", async () => {
    const filename = await digest();
    const saved = await http<Json>("POST", "/api/backup/save", { body: { filename, contents: "ciphertext-1", signature: "sig", api_message: "msg", expiredays: 14 } });
    expect(saved.status).toBe(200);
    expect((saved.body.expires as number) - Date.now() / 1000).toBeGreaterThan(13.9 * 86400);
    const loaded = await http<Json>("POST", "/api/backup/load", { body: { filename } });
    expect(loaded.body).toMatchObject({ filename, contents: "ciphertext-1", signature: "sig", api_message: "msg" });
    const again = await http("POST", "/api/backup/save", { body: { filename, contents: "ciphertext-2" } });
    expect(again).toMatchObject({ status: 409, body: { code: "backup_exists" } });
    expect((await http<Json>("POST", "/api/backup/load", { body: { filename } })).body.contents).toBe("ciphertext-1");
  });

  it("answers 404 for an unknown name and 422 for names that are not digests or contents that are too big", async () => {
    expect(await http("POST", "/api/backup/load", { body: { filename: await digest() } })).toMatchObject({ status: 404, body: { code: "backup_not_found" } });
    for (const filename of ["my-backup", "A".repeat(44), "A".repeat(42) + "B", "A".repeat(42) + "=", "../../etc/passwd", ""]) {
      expect((await http("POST", "/api/backup/save", { body: { filename, contents: "x" } })).status, filename).toBe(422);
      expect((await http("POST", "/api/backup/load", { body: { filename } })).status, filename).toBe(422);
    }
    const filename = await digest();
    expect((await http("POST", "/api/backup/save", { body: { filename, contents: "x".repeat(32 * 1024 + 1) } })).status).toBe(422);
    expect((await http("POST", "/api/backup/save", { body: { filename, contents: "x", expiredays: 366 } })).status).toBe(422);
    expect((await http("POST", "/api/backup/save", { body: { filename, contents: "" } })).status).toBe(422);
  });
});

describe("account keys: wrong callers", () => {
  it("signs only with the caller's own uid in the record", async () => {
    const me = await createSession();
    const keys = await generateAccountKeys();
    const { body } = await newKeyBody(me.id, null, { keys });
    const record = keypairRecord({ uid: me.id, encryptPublic: body.encrypt_public, signPublic: body.sign_public, timestamp: body.timestamp });
    const good = await signRecord(keys.sign.privateKey, record);
    expect((await http("POST", "/api/keypairs", { token: me.api_token, body: { ...body, signature: { ...good } } })).status).toBe(200);
  });
});
