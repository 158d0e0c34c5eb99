import { Mail, Pickup, worker } from "@sealwork/core";

/** The jobs queue's consumer: one branch per message type. */
export const handler = worker(async (job) => {
  switch (job.type) {
    case "mail":
      return Mail.deliver(job);
    case "purge-attachments":
      return Pickup.purgeObjects(job.conversationId);
    case "pickup-sweep":
      return void (await Pickup.sweep());
  }
});
