import { db } from "../db/service";
import type { InviteItem } from "./entities";
import "./entities";

/**
 * An account's invitation as other domains need it (the keys domain at takeover): read-only, and
 * importing nothing of theirs, so that they can ask without an import cycle.
 */
export namespace Invitation {
  export async function ofUser(userId: number): Promise<InviteItem | undefined> {
    const { data } = await db().entities.invite.get({ userId }).go();
    return data ?? undefined;
  }

  /** Whether the invitation's validity has ended (seconds). */
  export function expired(invite: Pick<InviteItem, "validUntil">, nowSeconds = Date.now() / 1000): boolean {
    return invite.validUntil <= nowSeconds;
  }
}
