import { worker } from "@sealwork/core/http/worker";
import { Pickup } from "@sealwork/core/pickup";

/** Deletes a removed pickup's encrypted files: every object under its conversation's prefix. */
export const handler = worker("purge-attachments", (job) => Pickup.purgeObjects(job.conversationId));
