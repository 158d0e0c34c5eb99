import { Attachment } from "../conversation";
import { db } from "../db/service";
import { DriveFiles } from "../drive";
import { logger } from "../http/logger";
import { CardFiles } from "../mote";
import type { FileWatch } from "./entities";

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

  /** Sweeps every note due by `now`; answers how many files were deleted and how many kept. */
  export async function run(now = nowSeconds()): Promise<{ deleted: number; kept: number }> {
    const { data } = await db().entities.filewatch.query.byDue({}).lt({ dueAt: now }).go({ pages: "all" });
    let deleted = 0;
    for (const note of data) {
      if (await forget[note.owner](note.ownerId, note.fileId)) deleted++;
      await db().entities.filewatch.delete({ dueAt: note.dueAt, owner: note.owner, fileId: note.fileId }).go();
    }
    if (data.length) logger.info("upload sweep", { due: data.length, deleted });
    return { deleted, kept: data.length - deleted };
  }
}
