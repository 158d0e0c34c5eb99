import type { KeypairTarget } from "@sealwork/contracts";
import type { Actor } from "../access";
import { Identity } from "../identity/identity";
import { Keypair } from "../keys/keypair";
import { groupAccess, membersOf } from "./access";

/** The keys a client seals a group's key for (served by the keys area, which has the key verbs anyway). */
export namespace GroupTargets {
  /**
   * GET /api/keypairs/target?type=group&id=: the members' current keys (members only), each with
   * the identity a client verifies before it seals for it (as GET /api/identities/{id} serves it).
   * Members without a key yet are left out: GET /api/groups/{id}/wraps/status names them.
   */
  export async function of(actor: Actor, id: number): Promise<KeypairTarget[]> {
    await groupAccess(actor, id, "read");
    const members = await membersOf(id);
    const found = await Promise.all(
      members.map(async (m) => {
        const [keys, identity] = await Promise.all([Keypair.targets(actor, m.userId), Identity.chain(actor, m.userId)]);
        return keys.map((key) => ({ ...key, identity }));
      }),
    );
    return found.flat();
  }

}
