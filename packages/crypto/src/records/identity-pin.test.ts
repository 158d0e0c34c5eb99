import { describe, expect, it } from "vitest";
import { expectRefusal } from "../test-support";
import { verifyIdentity } from "./identity-chain";
import { checkPin } from "./identity-pin";
import { World } from "./v2-test-support";

describe("pins", () => {
  it("new, then same; a chained rotation moves the pin and keeps the verified mark", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    const first = await verifyIdentity(world.chain(2), world.trust);
    const fresh = checkPin(undefined, first);
    expect(fresh).toEqual({ status: "new", pin: { userId: 2, keyId: first.keyId, seq: 0, verified: false } });
    const verified = { ...fresh.pin, verified: true };
    expect(checkPin(verified, first)).toEqual({ status: "same", pin: verified });
    // The pin is plain JSON: it survives being stored and read back.
    expect(checkPin(JSON.parse(JSON.stringify(verified)), first).status).toBe("same");

    await world.rotate(2);
    await world.rotate(2);
    const rotated = await verifyIdentity(world.chain(2), world.trust);
    expect(checkPin(verified, rotated)).toEqual({ status: "rotated", pin: { userId: 2, keyId: rotated.keyId, seq: 2, verified: true } });
  });

  it("refuses an older key than the pinned one (stale_key)", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    const old = await verifyIdentity(world.chain(2), world.trust);
    await world.rotate(2);
    const { pin } = checkPin(undefined, await verifyIdentity(world.chain(2), world.trust));
    await expectRefusal(Promise.resolve().then(() => checkPin(pin, old)), "stale_key");
  });

  it("refuses another key at the pinned seq or a chain without the pinned key (untrusted_key)", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    await world.rotate(2);
    const { pin } = checkPin(undefined, await verifyIdentity(world.chain(2), world.trust));

    // The server re-invites user 2 with keys of its choosing: a valid chain, but not from the pin.
    const other = await World.create();
    other.people.set(1, world.person(1));
    other.anchors = world.anchors;
    await other.invite(1, 2);
    const substitute = await verifyIdentity(other.chain(2), other.trust);
    await expectRefusal(Promise.resolve().then(() => checkPin({ ...pin, seq: 0, keyId: pin.keyId }, substitute)), "untrusted_key");
    await other.rotate(2);
    await other.rotate(2);
    const forked = await verifyIdentity(other.chain(2), other.trust);
    await expectRefusal(Promise.resolve().then(() => checkPin(pin, forked)), "untrusted_key");
  });

  it("refuses a malformed pin or another user's", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    const identity = await verifyIdentity(world.chain(2), world.trust);
    const { pin } = checkPin(undefined, identity);
    for (const bad of [{ ...pin, userId: 3 }, { ...pin, seq: -1 }, { ...pin, keyId: "x" }, { ...pin, verified: "yes" }, { ...pin, extra: 1 }, null]) {
      await expectRefusal(Promise.resolve().then(() => checkPin(bad as never, identity)), "invalid_input");
    }
  });
});
