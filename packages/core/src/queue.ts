import { SQSClient, SendMessageCommand } from "@aws-sdk/client-sqs";
import { z } from "zod";
import { config } from "./config";
import { localCredentials } from "./db/client";

/** Every message the jobs queue carries. Workers parse with this and drop what does not fit. */
export const JobMessage = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("mail"),
    to: z.string().min(3),
    channel: z.enum(["email", "sms"]),
    subject: z.string(),
    text: z.string(),
  }),
  // A deleted or expired pickup's encrypted files: everything under its conversation's prefix.
  z.object({ type: z.literal("purge-attachments"), conversationId: z.number().int().min(1) }),
  // Removes every pickup past its validity end (Pickup.sweep); sent by a schedule.
  z.object({ type: z.literal("pickup-sweep") }),
]);
export type JobMessage = z.infer<typeof JobMessage>;

let client: SQSClient | undefined;

export function sqs(): SQSClient {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  client ??= new SQSClient({ region: AWS_REGION, ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT, credentials: localCredentials } : {}) });
  return client;
}

export namespace Queue {
  export async function send(message: JobMessage): Promise<void> {
    await sqs().send(new SendMessageCommand({ QueueUrl: config().JOBS_QUEUE_URL, MessageBody: JSON.stringify(JobMessage.parse(message)) }));
  }
}
