import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { shareGroup } from "../support/conversations";
import { newKeyBody } from "../support/keys";
import { signedMessageBody, signer, startSigned } from "../support/signed-conversations";
import { createSession } from "../support/users";

/**
 * A message signed by a key its sender has replaced (renewed in another browser, or reset by an
 * administrator) is refused with 409 `sender_key_stale` (docs/api.md, the append routes): the
 * check rides in the append's transaction, on the sender's key head.
 */
type Json = Record<string, unknown>;

const append = (token: string, id: number, body: Json) => http<{ code?: string }>("POST", `/api/conversations/${id}/append`, { token, body });
const currentKeyId = async (token: string) => (await http<{ keypair: { id: number } }>("GET", "/api/keypairs", { token })).body.keypair.id;

describe("messages signed by a replaced key", () => {
  it("are refused once the sender registered a new key; the new key's are stored", async () => {
    const [annSession, benSession] = await Promise.all([createSession({ name: "Ann Stale" }), createSession({ name: "Ben Stale" })]);
    await shareGroup(annSession, benSession);
    const [ann, ben] = await Promise.all([signer(annSession, { register: true }), signer(benSession, { register: true })]);
    const state = await startSigned(ann, [ben]);
    const token = annSession.api_token;
    expect((await append(token, state.id, await signedMessageBody(state, ann, "old-1", "before"))).status).toBe(200);

    // Ann renews her key elsewhere: her old key signs no more.
    const renewed = await signer(annSession);
    const { body } = await newKeyBody(annSession.id, await currentKeyId(token), { keys: renewed.me.keys });
    expect((await http("POST", "/api/keypairs", { token, body })).status).toBe(200);
    const stale = await append(token, state.id, await signedMessageBody(state, ann, "old-2", "after"));
    expect([stale.status, stale.body.code]).toEqual([409, "sender_key_stale"]);
    // Not even as a retry of a message stored before (the same localid answers the stored one).
    expect((await append(token, state.id, await signedMessageBody(state, ann, "old-1", "before"))).status).toBe(200);
    // Another person's key is not hers either.
    const foreign = await append(token, state.id, await signedMessageBody(state, ben, "ben-as-ann", "who"));
    expect([foreign.status, foreign.body.code]).toEqual([409, "sender_key_stale"]);
    expect((await append(token, state.id, await signedMessageBody(state, renewed, "new-1", "renewed"))).status).toBe(200);

    const page = await http<{ motes: { localid: string; sender_key_id: string }[] }>("GET", `/api/conversations/${state.id}`, { token: benSession.api_token });
    expect(page.body.motes.map((m) => [m.localid, m.sender_key_id])).toEqual([
      ["old-1", ann.me.keyId],
      ["new-1", renewed.me.keyId],
    ]);
  });
});
