import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import MailComposer from "nodemailer/lib/mail-composer";
import { config } from "./config";
import type { OutgoingMail } from "./mail";

/**
 * The mail worker's side of Mail.send. An email is composed by nodemailer's MailComposer, which
 * encodes every header (a subject with a person's name in it becomes RFC 2047 encoded words,
 * folded), so no text can add a header line, whatever it holds; the names themselves are refused
 * earlier when they hold control characters (the contracts' plainText).
 */
export namespace MailDelivery {
  /** The email as sent: an RFC 5322 message (headers encoded, the body quoted-printable UTF-8). */
  export async function compose(mail: OutgoingMail): Promise<Buffer> {
    return new MailComposer({
      from: config().MAIL_FROM,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      textEncoding: "quoted-printable",
      disableFileAccess: true,
      disableUrlAccess: true,
    })
      .compile()
      .build();
  }

  /** Through SES on AWS (the composed message as it is), or into the local outbox folder. */
  export async function deliver(mail: OutgoingMail): Promise<void> {
    const settings = config();
    if (settings.MAIL_TRANSPORT === "outbox") return writeToOutbox(mail);
    if (mail.channel === "sms") throw new Error("No text-message provider is configured for this instance");
    await ses().send(
      new SendEmailCommand({
        FromEmailAddress: settings.MAIL_FROM,
        Destination: { ToAddresses: [mail.to] },
        Content: { Raw: { Data: await compose(mail) } },
      }),
    );
  }

  /**
   * The local outbox: one JSON file per message, with the composed message (`raw`, what SES
   * would have been handed) beside the plain fields the outbox page and tests read.
   */
  async function writeToOutbox(mail: OutgoingMail): Promise<void> {
    const dir = config().OUTBOX_DIR;
    if (!dir) throw new Error("OUTBOX_DIR is not set");
    await mkdir(dir, { recursive: true });
    const sentAt = new Date().toISOString();
    const id = `${Date.now()}-${crypto.randomUUID().slice(0, 8)}`;
    const raw = mail.channel === "email" ? (await compose(mail)).toString("utf8") : undefined;
    await writeFile(join(dir, `${id}.json`), JSON.stringify({ id, sentAt, ...mail, raw }, null, 2));
  }
}

let sesClient: SESv2Client | undefined;
function ses(): SESv2Client {
  sesClient ??= new SESv2Client({ region: config().AWS_REGION });
  return sesClient;
}
