import { Attachment } from "@sealwork/core/conversation";
import { worker } from "@sealwork/core/http/worker";

/** Deletes a removed conversation's encrypted files: every object under its conversation's prefix. */
export const handler = worker("purge-attachments", (job) => Attachment.purgeObjects(job.conversationId));
