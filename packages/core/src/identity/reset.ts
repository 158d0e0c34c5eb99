import { id as idSchema, keyResetBody, normaliseContact, type KeyResetMade } from "@sealwork/contracts";
import type { SignedIdentity } from "@sealwork/crypto";
import type * as z from "zod";
import { can, requireAdmin, type Actor } from "../access";
import { nextId } from "../db/counter";
import { db } from "../db/service";
import { fail, valid } from "../errors";
import type { KeypairItem } from "../keys/entities";
import { Keypair } from "../keys/keypair";
import { KeyResets } from "../keys/resets";
import { getUser } from "../user/read";
import { IdentityRecords } from "./records";
import "../keys/entities";
import "../conversation/errors";
import "./errors";

/**
 * Key resets (docs/protocol.md §14.3, "Key resets"): an administrator gives a user who lost their
 * key a way back, as an invitation's takeover does. Their browser made temporary keys, wrapped
 * them under a code it shows the administrator only, and signed a reset naming the user, their
 * address, the key they lose and those temporary keys; the server makes the temporary key the
 * user's current key, and the user's next key must be certified by that reset (Keypair.register).
 */
export namespace KeyReset {
  /**
   * POST /api/identities/{id}/reset. Checked as the user's client will check it, and stored in one
   * transaction whose condition is that the user's current key is still the one read here: of two
   * administrators resetting at once one wins, the other gets identity_conflict. A reset still
   * pending is superseded (its temporary key, transit and item go); an invitation's temporary key
   * is not reset (the invitation is resent instead).
   */
  export async function make(actor: Actor, id: number, body: z.input<typeof keyResetBody>): Promise<KeyResetMade> {
    const admin = requireAdmin(actor);
    valid(idSchema, id);
    const input = valid(keyResetBody, body);
    const target = await getUser(id);
    if (!target) fail("user_not_found");
    if (!can(actor, "reset-key", { kind: "account", id, superAdmin: target.superAdmin })) fail(id === admin.uid ? "key_reset_own" : "forbidden");
    const head = await Keypair.currentKey(id);
    if (!head) fail("key_reset_invalid", { message: "This account has no key to reset." });
    const pending = await KeyResets.of(head.item);
    if (head.item.type === "temp" && !pending) fail("key_reset_invalid", { message: "This account has not taken its invitation over: resend the invitation instead." });

    const nowMs = Date.now();
    const now = Math.floor(nowMs / 1000);
    const temp = await Keypair.checkTemp(input.public_key, input.transit, now);
    const current = (await IdentityRecords.items(id)).at(-1);
    // The address the chain holds; an account without one (protocol v1) may be named by any of its contacts.
    const emails = current
      ? [(JSON.parse(current.record) as SignedIdentity).record.email]
      : [target.email, target.phone].filter((c): c is string => Boolean(c)).map(normaliseContact);
    const reset = await IdentityRecords.checkKeyReset(admin.uid, input.reset, { userId: id, emails, replaces: current?.keyId ?? null, temp: temp.key }, nowMs);

    const key: KeypairItem = { id: await nextId("keypair"), userId: id, type: "temp", sentinel: now, ...temp.key };
    const expiresAt = Math.floor(reset.expires / 1000);
    const result = await db()
      .transaction.write((tx) => Keypair.resetInstallation(tx, head.item.id, pending !== undefined, key, temp.transit, { userId: id, keyId: key.id, reset: reset.text, expiresAt }))
      .go();
    // The user's key changed since it was read: another administrator's reset, or the user's own new key.
    if (result.canceled) fail("identity_conflict");
    return { user_id: id, keypair_id: key.id, expires: expiresAt };
  }
}
