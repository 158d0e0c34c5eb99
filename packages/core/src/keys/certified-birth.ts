import { fail } from "../errors";
import { IdentityRecords } from "../identity/records";
import { Invitation } from "../invite/read";
import type { KeypairItem } from "./entities";
import { KeyResets } from "./resets";
import "../identity/errors";
import "../invite/errors";
import "./entities";

/**
 * What certifies a new key's identity record at its birth (docs/protocol.md §13, §14.3, §14.14),
 * as `Keypair.register` asks for it: the key reset or the signed invitation whose temporary key
 * the new one takes over, or the certificate an administrator stored for a version 1 user's key.
 * Each answer is canonical JSON, which the record must carry; null where nothing certifies it.
 */
export namespace CertifiedBirth {
  /**
   * The takeover of the temporary key `temp`: the pending key reset that made it, or else the
   * account's signed invitation (null for a legacy one). Either must still be valid, and a reset or
   * a signed invitation requires the identity record it certifies.
   */
  export async function ofTakeover(temp: KeypairItem, input: { identity?: unknown }, now: number) {
    const reset = await KeyResets.of(temp);
    if (reset) {
      if (KeyResets.expired(reset, now)) fail("key_reset_expired");
      if (input.identity === undefined) fail("key_reset_required");
      return { invitation: null, reset: reset.reset };
    }
    const invite = await Invitation.ofUser(temp.userId);
    if (invite && Invitation.expired(invite, now)) fail("invite_expired");
    const invitation = invite?.invitation ?? null;
    if (invitation !== null && input.identity === undefined) fail("invitation_required");
    return { invitation, reset: null };
  }

  /**
   * A version 1 user's move to a certified identity (docs/protocol.md §14.14): the certificate an
   * administrator stored for the key the record replaces, which the record must carry; null when
   * it is not such a record, the key is not the current public one, or it has none.
   */
  export async function legacyCertificate(head: KeypairItem | undefined, input: { last_key: number | null; identity?: unknown }): Promise<string | null> {
    const kind = (input.identity as { record?: { certifiedBy?: { kind?: unknown } } } | undefined)?.record?.certifiedBy?.kind;
    if (kind !== "legacy" || head?.type !== "public" || head.id !== input.last_key) return null;
    return (await IdentityRecords.legacyCertificate(head.userId, head.id))?.record ?? null;
  }
}
