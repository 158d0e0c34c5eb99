import { worker } from "@sealwork/core/http/worker";
import { Mail } from "@sealwork/core/mail";

/** The mail queue's consumer: each message through SES (locally into the outbox). */
export const handler = worker("mail", (job) => Mail.deliver(job));
