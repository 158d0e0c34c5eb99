import { worker } from "@sealwork/core/http/worker";
import { MailDelivery } from "@sealwork/core/mail-delivery";

/** The mail queue's consumer: each message composed and sent through SES (locally into the outbox). */
export const handler = worker("mail", (job) => MailDelivery.deliver(job));
