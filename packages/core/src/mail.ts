import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import { config } from "./config";
import { Queue, type JobMessage } from "./queue";

type Mail = Extract<JobMessage, { type: "mail" }>;

/**
 * Outgoing email and text messages. Domains call Mail.send, which only queues; the jobs worker
 * calls Mail.deliver, through SES on AWS or into the local outbox folder.
 */
export namespace Mail {
  export async function send(mail: Omit<Mail, "type">): Promise<void> {
    await Queue.send({ type: "mail", ...mail });
  }

  export async function deliver(mail: Mail): Promise<void> {
    const settings = config();
    if (settings.MAIL_TRANSPORT === "outbox") return writeToOutbox(mail);
    if (mail.channel === "sms") throw new Error("No text-message provider is configured for this instance");
    await ses().send(
      new SendEmailCommand({
        FromEmailAddress: settings.MAIL_FROM,
        Destination: { ToAddresses: [mail.to] },
        Content: { Simple: { Subject: { Data: mail.subject }, Body: { Text: { Data: mail.text } } } },
      }),
    );
  }

  async function writeToOutbox(mail: Mail): Promise<void> {
    const dir = config().OUTBOX_DIR;
    if (!dir) throw new Error("OUTBOX_DIR is not set");
    await mkdir(dir, { recursive: true });
    const sentAt = new Date().toISOString();
    const id = `${Date.now()}-${crypto.randomUUID().slice(0, 8)}`;
    await writeFile(join(dir, `${id}.json`), JSON.stringify({ id, sentAt, ...mail }, null, 2));
  }
}

let sesClient: SESv2Client | undefined;
function ses(): SESv2Client {
  sesClient ??= new SESv2Client({ region: config().AWS_REGION });
  return sesClient;
}
