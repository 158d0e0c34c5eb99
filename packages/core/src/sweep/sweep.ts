import { Attachment } from "../conversation";
import { db } from "../db/service";
import { DriveFiles } from "../drive";
import { logger } from "../http/logger";
import { CardFiles } from "../mote";
import type { FileWatch } from "./entities";
import "./entities";

/**
 * The upload sweep (job `upload-sweep`, hourly): every file whose day is up (Uploads.watch) is
 * looked at by its owner's domain; one that no message, drive item or card took loses its item
 * and its bytes (Uploads.forgetUnless). The note goes only after that, so a sweep that stops
 * half-way is taken up by the next.
 */
export namespace UploadSweep {
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  const forget: Record<FileWatch["owner"], (ownerId: number, fileId: number) => Promise<boolean>> = {
    conversation: Attachment.forgetUnused,
    drive: DriveFiles.forgetUnused,
    cards: CardFiles.forgetUnused,
  };

  /** Notes taken per query: each batch is done (and its notes deleted) before the next is read. */
  const BATCH = 100;
  /** The worker's timeout is 300 s; what is left after this much waits for the next hour. */
  const BUDGET_MS = 240_000;

  /** Sweeps the notes due by `now`, oldest first; answers how many files were deleted and how many kept. */
  export async function run(now = nowSeconds()): Promise<{ deleted: number; kept: number }> {
    const started = Date.now();
    let deleted = 0;
    let seen = 0;
    while (Date.now() - started < BUDGET_MS) {
      const { data } = await db().entities.filewatch.query.byDue({}).lt({ dueAt: now }).go({ limit: BATCH });
      for (const note of data) {
        if (await forget[note.owner](note.ownerId, note.fileId)) deleted++;
        await db().entities.filewatch.delete({ dueAt: note.dueAt, owner: note.owner, fileId: note.fileId }).go();
      }
      seen += data.length;
      if (data.length < BATCH) break;
    }
    if (seen) logger.info("upload sweep", { due: seen, deleted });
    return { deleted, kept: seen - deleted };
  }
}
