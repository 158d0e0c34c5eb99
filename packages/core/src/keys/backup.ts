import { BACKUP_DEFAULT_DAYS, backupLoad, backupSave } from "@sealwork/contracts";
import type { Actor } from "../access";
import { config } from "../config";
import { db } from "../db/service";
import { fail, valid } from "../errors";
import { RateLimit } from "../rate-limit/rate-limit";
import { isConditionFailure } from "../db/conditions";
import "./entities";
import "./errors";

const nowSeconds = () => Math.floor(Date.now() / 1000);
const DAY = 24 * 3600;

/**
 * The backup store for pickups and invitations (the spec's save.php and load.php): small
 * client-encrypted blobs, reachable without a login by the digest of a name only the parties
 * know (`backupNameDigest`, 256 bits). Entries are create-only, so a name cannot be taken over,
 * and expire. Account-key backups are NOT kept here: those go only to their logged-in owner
 * (POST /api/keypairs/{id}/recover).
 */
export namespace Backup {
  /** Unauthenticated writes: at most BACKUP_MAX_SAVES_PER_HOUR per client address in a sliding hour. */
  const saveRule = () => ({ scope: "backup-save", max: config().BACKUP_MAX_SAVES_PER_HOUR, windowSeconds: 3600 });
  /** Loads of names that do not exist count like failed logins from that address. */
  const missRule = () => ({ scope: "backup-miss", max: config().LOGIN_MAX_FAILURES_PER_IP, windowSeconds: config().LOGIN_LOCK_SECONDS });

  export interface Entry {
    filename: string;
    contents: string;
    signature?: string;
    api_message?: string;
    expiredays?: number;
  }

  export async function save(actor: Actor, body: Entry): Promise<{ filename: string; expires: number }> {
    const input = valid(backupSave, body);
    // Every save counts, stored or refused.
    await RateLimit.take(saveRule(), actor.ip);
    const now = nowSeconds();
    const expires = now + (input.expiredays ?? BACKUP_DEFAULT_DAYS) * DAY;
    try {
      await db()
        .entities.backup.put({
          name: input.filename,
          contents: input.contents,
          signature: input.signature,
          apiMessage: input.api_message,
          createdAt: now,
          expiresAt: expires,
        })
        // Create-only; an expired entry that TTL has not removed yet may be replaced.
        .where((attr, op) => `${op.notExists(attr.name)} OR ${op.lt(attr.expiresAt, now)}`)
        .go();
    } catch (error) {
      if (isConditionFailure(error)) fail("backup_exists");
      throw error;
    }
    return { filename: input.filename, expires };
  }

  export async function load(actor: Actor, filename: string) {
    valid(backupLoad, { filename });
    // Every load holds a slot of the client's window while it runs; only a miss keeps it.
    const data = await RateLimit.guard([[missRule(), actor.ip]], async () => {
      const { data: found } = await db().entities.backup.get({ name: filename }).go();
      return found && found.expiresAt > nowSeconds() ? found : fail("backup_not_found");
    });
    return {
      filename: data.name,
      contents: data.contents,
      signature: data.signature ?? null,
      api_message: data.apiMessage ?? null,
      expires: data.expiresAt,
    };
  }
}
