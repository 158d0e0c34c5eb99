import { Attachment } from "@sealwork/core/conversation";
import { worker } from "@sealwork/core/http/worker";
import { Mail } from "@sealwork/core/mail";
import { Pickup } from "@sealwork/core/pickup";

/** The jobs queue's consumer: one branch per message type. */
export const handler = worker(async (job) => {
  switch (job.type) {
    case "mail":
      return Mail.deliver(job);
    case "purge-attachments":
      return Attachment.purgeObjects(job.conversationId);
    case "pickup-sweep":
      return void (await Pickup.sweep());
  }
});
