import { AppError, Conversation, Invite, PasswordReset, Pickup, User, kindOf, type Actor } from "@sealwork/core";
import { KeyReset } from "@sealwork/core/identity";
import { describe, expect, it } from "vitest";
import { login } from "../support/api";
import { shareGroup, startConversation } from "../support/conversations";
import { createUser } from "../support/users";

/**
 * The domain's verbs hold their own rules: called directly, as a queue worker or an import would
 * call them, they check the actor with the access layer and their input with the route's zod
 * schema, exactly as the HTTP stack would have.
 */
const anonymous: Actor = { kind: "anonymous", ip: "192.0.2.1" };
const actorOf = (user: Awaited<ReturnType<typeof createUser>>): Actor => ({ kind: kindOf(user), ip: "192.0.2.1", uid: user.id, user });

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the verb refused").toBeInstanceOf(AppError);
  return { code: (error as AppError).code, fields: (error as AppError).fields };
}

describe("verbs called directly", () => {
  it("refuse actors the access layer refuses", async () => {
    const [alice, bob] = await Promise.all([createUser(), createUser()]);
    expect(await refusal(Conversation.reserve(anonymous))).toMatchObject({ code: "forbidden" });
    expect(await refusal(Invite.list(actorOf(alice)))).toMatchObject({ code: "forbidden" });
    expect(await refusal(User.list(actorOf(alice)))).toMatchObject({ code: "forbidden" });
    expect(await refusal(User.update(actorOf(alice), bob.id, { name: "Mallory" }))).toMatchObject({ code: "forbidden" });
    expect(await refusal(User.setDisabled(actorOf(alice), bob.id, true))).toMatchObject({ code: "forbidden" });
    expect(await refusal(User.setDisabled(anonymous, bob.id, true))).toMatchObject({ code: "forbidden" });
    expect(await refusal(KeyReset.make(actorOf(alice), bob.id, {} as never))).toMatchObject({ code: "forbidden" });
    const guest: Actor = { kind: "guest", ip: "192.0.2.1", uid: 0, pickup: 1, live: true };
    expect(await refusal(Pickup.create(guest, {} as never))).toMatchObject({ code: "forbidden" });
  });

  it("refuse input their route's schema refuses, before writing anything", async () => {
    const alice = await createUser({ admin: true });
    const me = actorOf(alice);
    expect(await refusal(Conversation.create(me, { id: 0, recipient: -1, sealed_keys: [] } as never))).toMatchObject({ code: "validation", fields: { id: expect.any(Array), recipient: expect.any(Array) } });
    expect(await refusal(Conversation.load(me, 1.5, {}))).toMatchObject({ code: "validation" });
    expect(await refusal(User.update(me, alice.id, { name: "   " }))).toMatchObject({ code: "validation", fields: { name: expect.any(Array) } });
    expect(await refusal(User.update(me, alice.id, { name: "Your Bank\r\nBcc: x@evil.example" }))).toMatchObject({ code: "validation", fields: { name: expect.any(Array) } });
    expect(await refusal(User.setDisabled(me, 1.5, true))).toMatchObject({ code: "validation" });
    expect(await refusal(PasswordReset.request(anonymous, 0, "not an address"))).toMatchObject({ code: "validation", fields: { uid: expect.any(Array), contact: expect.any(Array) } });
    expect(await refusal(PasswordReset.reset(anonymous, { contact: alice.email, vericode: "12", password: "short" }))).toMatchObject({ code: "validation", fields: { vericode: expect.any(Array), password: expect.any(Array) } });
    expect(await refusal(Invite.create(me, { email: "not an address" } as never))).toMatchObject({ code: "validation" });
    expect(await refusal(KeyReset.make(me, 1.5, {} as never))).toMatchObject({ code: "validation" });
    expect(await refusal(KeyReset.make(me, alice.id, { public_key: {}, transit: {}, reset: null } as never))).toMatchObject({ code: "validation", fields: { "public_key.timestamp": expect.any(Array), reset: expect.any(Array) } });
  });

  it("apply the same rules as over HTTP", async () => {
    const [alice, bob, carol] = await Promise.all([createUser(), createUser(), createUser()]);
    const session = (u: typeof alice) => ({ id: u.id, api_token: "" });
    await shareGroup(session(alice), session(bob));
    const { id } = await startConversation(await login(alice.id, alice.password!), [session(bob)]);
    // Bob is not the author nor an admin of it; Carol shares no group with Alice.
    expect(await refusal(Conversation.participate(actorOf(bob), id, { participant: carol.id, sealed: "x" }))).toMatchObject({ code: "add_not_author" });
    expect(await refusal(Conversation.load(actorOf(carol), id, {}))).toMatchObject({ code: "conversation_forbidden" });
  });
});
