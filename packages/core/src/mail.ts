import { Queue, type JobMessage } from "./queue";

export type OutgoingMail = Extract<JobMessage, { type: "mail" }>;

/**
 * Outgoing email and text messages. Domains call Mail.send, which only queues; the mail worker
 * delivers them (MailDelivery in mail-delivery.ts: composed, then SES or the local outbox), so
 * the composer and the SES client go into that worker's bundle only.
 */
export namespace Mail {
  export async function send(mail: Omit<OutgoingMail, "type">): Promise<void> {
    await Queue.send({ type: "mail", ...mail });
  }
}
