import { PutObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { Queue } from "@sealwork/core";
import { db } from "@sealwork/core/db/service";
import { PICKUP_MAX_WRONG } from "@sealwork/contracts";
import { derivePickupKeys, formatPickupCode, normalizePickupCode, openMessage, openPickup, pickupFragment } from "@sealwork/crypto";
import { describe, expect, inject, it } from "vitest";
import { http, outboxFor } from "../support/api";
import { encrypted, encryptedMessage, reserveConversation, shareGroup, startConversation } from "../support/conversations";
import { burst, freshAddress, tally } from "../support/attack";
import { collect, createPickup, pickupBody, type MadePickup, type Meta } from "../support/pickups";
import { spawnRuntime } from "../support/runtime";
import { createSession } from "../support/users";

type Json = Record<string, unknown>;
const INCORRECT = "This pickup code is incorrect or has expired...";
const DELETED = "This conversation or pickup has been deleted!";
const NOT_AUTHORIZED = "You are not authorized to access this conversation or pickup!";

describe("pickups: creating", () => {
  it("creates the conversation with the guest (user 0), lists it for the creator and mails the link", async () => {
    const creator = await createSession({ name: "Pia" });
    const p = await createPickup(creator, { title: "Your tax papers" });
    expect(p.body).toMatchObject({
      conversation_id: p.conversation_id,
      conversation: { id: p.conversation_id, author_id: creator.id, recipient_id: 0, multiple: false, participants: [{ user_id: 0, admin: false }, { user_id: creator.id, admin: true }] },
      pickup: { conversation_id: p.conversation_id, email: p.email, redeem_timestamp: -1, link_secret: true, locked: false },
    });
    const expire = (p.body.pickup as Json).expire_timestamp as number;
    expect(Math.abs(expire - (Date.now() / 1000 + 14 * 86400))).toBeLessThan(60);

    const listed = await http<{ conversations: Json[]; pickups: Record<string, Json>; attribution: Json }>("GET", `/api/users/${creator.id}/conversations`, { token: creator.api_token });
    expect(listed.body.pickups[String(p.conversation_id)]).toMatchObject({ email: p.email, redeem_timestamp: -1, expire_timestamp: expire });
    expect(listed.body.attribution["0"]).toEqual({ uid: 0, name: "Guest" });
    const checked = await http<{ pickups: Record<string, Json> }>("GET", "/api/notify/check?previous=0", { token: creator.api_token });
    expect(checked.body.pickups[String(p.conversation_id)]).toMatchObject({ email: p.email });

    const [mail] = await outboxFor(p.email);
    expect(mail!.subject).toContain("Pia");
    expect(mail!.text).toContain(p.link);
    expect(mail!.text).not.toContain(p.securityCode);
    expect(mail!.text).not.toContain("tax papers");
  });

  it("without a link (the creator sends it themselves) mails a notice that holds neither the link nor the code", async () => {
    const creator = await createSession({ name: "Sina" });
    const p = await createPickup(creator, { sendMyself: true });
    expect(p.body).toMatchObject({ pickup: { conversation_id: p.conversation_id, email: p.email, link_secret: true, locked: false } });
    const [mail] = await outboxFor(p.email);
    expect(mail!.subject).toContain("Sina");
    expect(mail!.text).toContain("sends you the link to open them directly");
    const secret = p.link.slice(p.link.indexOf("#") + 1);
    for (const leaked of [p.link, secret, p.code, p.linkSecret!, p.securityCode, "#"]) expect(mail!.text).not.toContain(leaked);
    // The guest opens it with the link the creator passed on.
    const meta = await http<Json>("GET", `/api/pickup/${p.lookup}?meta=1`);
    expect(meta.status).toBe(200);
    expect(meta.body.link_secret).toBe(true);
  });

  it("refuses bodies that do not hold together", async () => {
    const creator = await createSession();
    const post = (body: unknown) => http<Json>("POST", "/api/pickup", { token: creator.api_token, body });
    const good = await pickupBody(creator);
    const other = await pickupBody(creator, { linkSecret: false });
    for (const [label, body] of [
      ["link to another site", { ...good.body, link: good.link.replace(/^https?:\/\/[^/]+/, "https://evil.example") }],
      ["code-only link for a key that needs the secret", { ...good.body, link: other.link }],
      ["lookup of another code", { ...good.body, lookup: other.lookup }],
      ["sealed key instead of the pickup-wrap", { ...good.body, wrapped: good.body.sealed }],
    ] as const) {
      const reply = await post(body);
      expect(reply.status, label).toBe(422);
    }
    expect((await post({ ...good.body, expiredays: 3 })).status).toBe(422);
    expect((await post(good.body)).status).toBe(200);
    // The same lookup again (the same code): the client must draw another code.
    const again = await post(good.body);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Server error while creating your pickup. Please try again later.");
  });

  it("cannot take more people", async () => {
    const creator = await createSession();
    const other = await createSession();
    await shareGroup(creator, other);
    const p = await createPickup(creator);
    const reply = await http<Json>("POST", `/api/conversations/${p.conversation_id}/participate`, { token: creator.api_token, body: { participant: other.id, sealed: (await pickupBody(creator)).body.sealed } });
    expect(reply.status).toBe(422);
    expect(reply.body.message).toBe("You can only add more people to a conversation, not a pickup.");
    const remove = await http<Json>("POST", `/api/conversations/${p.conversation_id}/unparticipate`, { token: creator.api_token, body: { unparticipant: other.id } });
    expect(remove.status).toBe(403);
    // Nor does anyone's admin state change: the guest (user 0) is no user id the API takes, and
    // the author's is refused as any other would be.
    const guest = await http<Json>("POST", `/api/conversations/${p.conversation_id}/participate`, { token: creator.api_token, body: { participant: 0, admin: true } });
    expect(guest).toMatchObject({ status: 422, body: { code: "validation" } });
    const author = await http<Json>("POST", `/api/conversations/${p.conversation_id}/participate`, { token: creator.api_token, body: { participant: creator.id, unadmin: true } });
    expect(author).toMatchObject({ status: 422, body: { code: "pickup_admin" } });
    const view = await http<{ participants: { user_id: number; admin: boolean }[] }>("GET", `/api/conversations/${p.conversation_id}`, { token: creator.api_token });
    expect(view.body.participants.find((x) => x.user_id === 0)?.admin).toBe(false);
  });
});

/** The auth key a guest's client derives from the pickup's code and `securityCode` (one Argon2id). */
async function authFor(p: MadePickup, securityCode: string): Promise<string> {
  const meta = (await http<Meta>("GET", `/api/pickup/${p.lookup}?meta=1`)).body;
  const keys = await derivePickupKeys(
    { code: p.code, securityCode, linkSecret: p.linkSecret },
    { salt: meta.salt, memoryKiB: meta.memoryKiB, iterations: meta.iterations, parallelism: meta.parallelism, link: meta.link_secret ? 1 : 0 },
  );
  return keys.auth;
}

describe("pickups: the guest", () => {
  it("looks up, recovers with the security code, reads, answers; the creator sees the redemption", async () => {
    const creator = await createSession();
    const p = await createPickup(creator, { title: "Contract" });
    await http("POST", `/api/conversations/${p.conversation_id}/append`, { token: creator.api_token, body: { localid: "c1", payload: await encryptedMessage(p.key, p.conversation_id, creator.id, "c1", "Here it is") } });

    const { meta, recover, keys } = await collect(p);
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ conversation_id: p.conversation_id, memoryKiB: 1024, iterations: 1, parallelism: 1, link_secret: true, redeem_timestamp: -1 });
    expect(meta.body).not.toHaveProperty("wrapped");
    expect(recover.status).toBe(200);
    expect(recover.body).toMatchObject({ id: 0, name: "Guest", conversation_id: p.conversation_id });
    expect(recover.body.redeem_timestamp).toBeGreaterThan(0);
    const guest = recover.body.api_token;

    const page = await http<{ motes: { payload: string; source_id: number }[]; sealed: string; meta: Json; attrib: Json }>("GET", `/api/conversations/${p.conversation_id}?meta=1`, { token: guest });
    expect(page.status).toBe(200);
    expect(page.body.sealed).toBe(recover.body.wrapped);
    const { key, title } = await openPickup(keys!, { conversationId: p.conversation_id, wrapped: page.body.sealed, title: page.body.meta.title as string });
    expect(title).toBe("Contract");
    expect(await openMessage(key, page.body.motes[0]!.payload, { conversationId: p.conversation_id, senderId: creator.id, localid: "c1" })).toEqual({ text: "Here it is" });
    expect(page.body.attrib["0"]).toEqual({ uid: 0, name: "Guest" });

    const answer = await http<{ mote: { source_id: number } }>("POST", `/api/conversations/${p.conversation_id}/append`, { token: guest, body: { localid: "g1", payload: await encryptedMessage(key, p.conversation_id, 0, "g1", "Thanks!") } });
    expect(answer.status).toBe(200);
    expect(answer.body.mote.source_id).toBe(0);
    expect((await http<Json>("GET", `/api/conversations/${p.conversation_id}/poll?largest=0`, { token: guest })).body).toEqual({ has_new: true });

    const seen = await http<{ motes: { payload: string; source_id: number }[] }>("GET", `/api/conversations/${p.conversation_id}`, { token: creator.api_token });
    expect(await openMessage(p.key, seen.body.motes.at(-1)!.payload, { conversationId: p.conversation_id, senderId: 0, localid: "g1" })).toEqual({ text: "Thanks!" });
    const listed = await http<{ pickups: Record<string, Json> }>("GET", `/api/users/${creator.id}/conversations`, { token: creator.api_token });
    expect(listed.body.pickups[String(p.conversation_id)]!.redeem_timestamp).toBe(recover.body.redeem_timestamp);

    // A second collection keeps the first redemption time.
    const again = await collect(p);
    expect(again.recover.body.redeem_timestamp).toBe(recover.body.redeem_timestamp);
  });

  it("a code-only pickup opens with the code as typed on the login screen", async () => {
    const creator = await createSession();
    const p = await createPickup(creator, { linkSecret: false });
    // A version 2 code-only fragment: "2", the code and its check.
    expect(p.link.endsWith(`#${pickupFragment(p.code, null)}`)).toBe(true);
    const typed = normalizePickupCode(formatPickupCode(p.code).toLowerCase())!;
    const { meta, recover } = await collect({ ...p, code: typed });
    expect(meta.body.link_secret).toBe(false);
    expect(recover.status).toBe(200);
  });

  it("a guest reaches nothing but its own pickup", async () => {
    const [creator, other] = await Promise.all([createSession(), createSession()]);
    await shareGroup(creator, other);
    const p = await createPickup(creator);
    const q = await createPickup(creator);
    const convo = await startConversation(creator, [other]);
    const guest = (await collect(p)).recover.body.api_token;
    for (const id of [q.conversation_id, convo.id]) {
      const reply = await http<Json>("GET", `/api/conversations/${id}`, { token: guest });
      expect(reply.status).toBe(403);
      expect(reply.body.message).toBe(NOT_AUTHORIZED);
      expect((await http("POST", `/api/conversations/${id}/append`, { token: guest, body: { localid: "x", payload: await encrypted(p.key, "x") } })).status).toBe(403);
    }
    for (const [method, path, body] of [
      ["GET", `/api/users/${creator.id}/conversations`],
      ["GET", "/api/notify/check?previous=0"],
      ["PATCH", `/api/conversations/${p.conversation_id}`, { title: await encrypted(p.key, "x") }],
      ["POST", `/api/conversations/${p.conversation_id}/participate`, { participant: other.id, sealed: "x" }],
      ["POST", `/api/conversations/${p.conversation_id}/archive`, {}],
      ["DELETE", `/api/conversations/${p.conversation_id}`],
      ["POST", "/api/pickup", (await pickupBody(creator)).body],
      ["GET", "/api/keypairs"],
    ] as const) {
      expect((await http(method, path, { token: guest, body })).status, `${method} ${path}`).toBe(403);
    }
  });

  it("unknown codes get the spec's text", async () => {
    const reply = await http<Json>("GET", `/api/pickup/${"A".repeat(43)}?meta=1`);
    expect(reply.status).toBe(404);
    expect(reply.body.message).toBe(INCORRECT);
    expect((await http("POST", `/api/pickup/recover/${"A".repeat(43)}`, { body: { auth: "A".repeat(43) } })).status).toBe(404);
    expect((await http("GET", "/api/pickup/short")).status).toBe(422);
  });

  it("30 wrong security codes at once, each on its own connection: at most nine 'incorrect', then locked for good", async () => {
    const creator = await createSession();
    const p = await createPickup(creator);
    const wrong = p.securityCode === "000000" ? "000001" : "000000";
    const auth = await authFor(p, wrong);
    // Each from another address, so that the pickup's own count is what holds them.
    const hits = await burst(30, () => ({ method: "POST", path: `/api/pickup/recover/${p.lookup}`, body: { auth }, from: freshAddress() }));
    const counts = tally(hits);
    expect(Object.keys(counts).sort(), JSON.stringify(counts)).toEqual(["403 pickup_auth_incorrect", "404 pickup_not_found"]);
    expect(counts["403 pickup_auth_incorrect"]).toBeLessThanOrEqual(PICKUP_MAX_WRONG - 1);
    const { data } = await db().entities.pickup.get({ conversationId: p.conversation_id }).go();
    expect(data!.failures).toBe(PICKUP_MAX_WRONG);
    expect((await collect(p)).meta.status).toBe(404);
  });

  it("counts wrong security codes and locks the pickup for good at the tenth", async () => {
    const creator = await createSession();
    const p = await createPickup(creator);
    const earlier = (await collect(p)).recover.body.api_token;
    const wrong = p.securityCode === "000000" ? "000001" : "000000";
    for (let i = 1; i <= 9; i++) {
      const { recover } = await collect(p, wrong);
      expect(recover.status, `wrong try ${i}`).toBe(403);
      expect((recover.body as unknown as Json).message).toBe("The security code is incorrect - please try again.");
    }
    const tenth = await collect(p, wrong);
    expect(tenth.recover.status).toBe(404);
    // Locked: the right code, the lookup and an earlier guest token are all turned away.
    const right = await collect(p);
    expect(right.meta.status).toBe(404);
    expect((right.meta.body as unknown as Json).message).toBe(INCORRECT);
    const keys = await collect({ ...p, lookup: p.lookup });
    expect(keys.recover.status).toBe(404);
    expect((await http<Json>("GET", `/api/conversations/${p.conversation_id}`, { token: earlier })).status).toBe(404);
    const listed = await http<{ pickups: Record<string, Json> }>("GET", `/api/users/${creator.id}/conversations`, { token: creator.api_token });
    expect(listed.body.pickups[String(p.conversation_id)]!.locked).toBe(true);
  });

  it("a right code after nine wrong ones (sent at once) still opens it and gives its try back", async () => {
    const creator = await createSession();
    const p = await createPickup(creator);
    const wrong = p.securityCode === "000000" ? "000001" : "000000";
    const wrongAuth = await authFor(p, wrong);
    const hits = await burst(PICKUP_MAX_WRONG - 1, () => ({ method: "POST", path: `/api/pickup/recover/${p.lookup}`, body: { auth: wrongAuth }, from: freshAddress() }));
    expect(tally(hits)).toEqual({ "403 pickup_auth_incorrect": PICKUP_MAX_WRONG - 1 });
    const right = await collect(p);
    expect(right.recover.status).toBe(200);
    const { data } = await db().entities.pickup.get({ conversationId: p.conversation_id }).go();
    expect(data!.failures).toBe(PICKUP_MAX_WRONG - 1);
    // Still open for the guest, until the next wrong code locks it.
    expect((await http("GET", `/api/conversations/${p.conversation_id}`, { token: right.recover.body.api_token })).status).toBe(200);
    expect((await http("POST", `/api/pickup/recover/${p.lookup}`, { body: { auth: wrongAuth } })).status).toBe(404);
    expect((await http("GET", `/api/conversations/${p.conversation_id}`, { token: right.recover.body.api_token })).status).toBe(404);
  });
});

describe("pickups: deleting and expiry", () => {
  const runtime = inject("runtime");
  const bucket = () =>
    new S3Client({ region: "eu-central-2", endpoint: runtime.env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  const objectsOf = async (id: number) =>
    (await bucket().send(new ListObjectsV2Command({ Bucket: runtime.env.BUCKET_NAME, Prefix: `attachments/${id}/` }))).Contents ?? [];

  it("only the author deletes a pickup, with its messages and files; ordinary conversations are not deleted", async () => {
    const [creator, other] = await Promise.all([createSession(), createSession()]);
    await shareGroup(creator, other);
    const p = await createPickup(creator);
    const guest = (await collect(p)).recover.body.api_token;
    await http("POST", `/api/conversations/${p.conversation_id}/append`, { token: guest, body: { localid: "g1", payload: await encrypted(p.key, "hello") } });
    await bucket().send(new PutObjectCommand({ Bucket: runtime.env.BUCKET_NAME, Key: `attachments/${p.conversation_id}/1`, Body: "ciphertext" }));

    const denied = await http<Json>("DELETE", `/api/conversations/${p.conversation_id}`, { token: other.api_token });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe("You are not authorized to delete this pickup conversation.");
    const convo = await startConversation(creator, [other]);
    expect((await http("DELETE", `/api/conversations/${convo.id}`, { token: creator.api_token })).status).toBe(422);

    const deleted = await http<Json>("DELETE", `/api/conversations/${p.conversation_id}`, { token: creator.api_token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });
    expect((await http("GET", `/api/pickup/${p.lookup}`)).status).toBe(404);
    const gone = await http<Json>("GET", `/api/conversations/${p.conversation_id}`, { token: guest });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(DELETED);
    // Deleted, not "never there": the tombstone Conversation.purge leaves answers for the id.
    expect(await http("GET", `/api/conversations/${p.conversation_id}`, { token: creator.api_token })).toMatchObject({ status: 404, body: { code: "conversation_not_found", message: DELETED } });
    const { data: motes } = await db().entities.mote.query.byConversation({ conversationId: p.conversation_id }).go();
    expect(motes).toEqual([]);
    const deadline = Date.now() + 10_000;
    while ((await objectsOf(p.conversation_id)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await objectsOf(p.conversation_id)).toEqual([]);
    expect(await http("DELETE", `/api/conversations/${p.conversation_id}`, { token: creator.api_token })).toMatchObject({ status: 404, body: { code: "conversation_not_found" } });
    // An id that never had a conversation is another thing: "Requested content not found."
    const never = await reserveConversation(creator);
    expect(await http("DELETE", `/api/conversations/${never}`, { token: creator.api_token })).toMatchObject({ status: 404, body: { code: "not_found", message: "Requested content not found." } });
    expect(await http("GET", `/api/conversations/${never}`, { token: creator.api_token })).toMatchObject({ status: 404, body: { code: "not_found" } });
  });

  it("an expired pickup is gone at once, and the sweep removes it with its conversation", async () => {
    const creator = await createSession();
    const p = await createPickup(creator, { expiredays: 2 });
    const guest = (await collect(p)).recover.body.api_token;
    await db().entities.pickup.patch({ conversationId: p.conversation_id }).set({ expireAt: Math.floor(Date.now() / 1000) - 1 }).go();

    const { meta } = await collect(p);
    expect(meta.status).toBe(404);
    expect((meta.body as unknown as Json).message).toBe(INCORRECT);
    expect((await http("GET", `/api/conversations/${p.conversation_id}`, { token: guest })).status).toBe(404);

    // What the hourly schedule sends (functions/routes.ts schedules): the worker runs the sweep.
    await Queue.send({ type: "pickup-sweep" });
    await expect
      .poll(async () => (await http("GET", `/api/conversations/${p.conversation_id}`, { token: creator.api_token })).status, { timeout: 15_000 })
      .toBe(404);
    // Swept, so deleted: the deleted text for the creator, as for the guest.
    expect(await http("GET", `/api/conversations/${p.conversation_id}`, { token: creator.api_token })).toMatchObject({ body: { code: "conversation_not_found", message: DELETED } });
    expect(await http("GET", `/api/conversations/${p.conversation_id}`, { token: guest })).toMatchObject({ status: 404, body: { code: "conversation_not_found" } });
    const { data } = await db().entities.pickup.get({ conversationId: p.conversation_id }).go();
    expect(data).toBeNull();
  });
});

describe("pickups: the per-client limit", () => {
  it("answers 429 after too many unknown codes or wrong security codes from one client", { timeout: 120_000 }, async () => {
    const own = await spawnRuntime({ env: { LOGIN_MAX_FAILURES_PER_IP: "3", ADMIN_EMAIL: "limit@example.ch", ADMIN_PASSWORD: "limit-password-1" } });
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(own.url + path, { method, headers: { "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
        return { status: response.status, body: (await response.json()) as Json };
      };
      for (let i = 0; i < 3; i++) expect((await call("GET", `/api/pickup/${String(i).repeat(43)}`)).status).toBe(404);
      const blocked = await call("POST", `/api/pickup/recover/${"B".repeat(43)}`, { auth: "A".repeat(43) });
      expect(blocked.status).toBe(429);
      expect(blocked.body.message).toBe("You are trying too many times - please wait one minute before submitting again.");
      expect((await call("GET", `/api/pickup/${"C".repeat(43)}`)).status).toBe(429);
    } finally {
      await own.stop();
    }
  });
});
