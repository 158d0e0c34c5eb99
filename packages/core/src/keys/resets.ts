import { db } from "../db/service";
import type { KeyResetItem, KeypairItem } from "./entities";
import "./entities";

/**
 * The key reset pending for a user (docs/protocol.md §14.3, "Key resets"), as the key and identity
 * verbs ask for it: read-only, and importing nothing of the crypto package.
 */
export namespace KeyResets {
  /** The reset whose temporary key is `key` (the user's current key), if `key` is a reset's and not an invitation's. */
  export async function of(key: Pick<KeypairItem, "id" | "userId" | "type">): Promise<KeyResetItem | undefined> {
    if (key.type !== "temp") return undefined;
    const { data } = await db().entities.keyreset.get({ userId: key.userId }).go();
    return data?.keyId === key.id ? data : undefined;
  }

  /**
   * Every pending reset of the instance (the administrators' users list): one query on gsi1,
   * whose items are a few hundred bytes, so a page of 1 MB holds thousands.
   */
  export async function all(): Promise<KeyResetItem[]> {
    const { data } = await db().entities.keyreset.query.pending({}).go({ pages: "all" });
    return data;
  }

  /** Whether the reset's end has passed (seconds). */
  export function expired(reset: Pick<KeyResetItem, "expiresAt">, nowSeconds = Date.now() / 1000): boolean {
    return reset.expiresAt <= nowSeconds;
  }
}
