import { GetQueueAttributesCommand, SQSClient, SendMessageCommand } from "@aws-sdk/client-sqs";
import * as z from "zod";
import { JOB_KINDS, config, queueUrlSetting, type JobKind } from "./config";
import { localCredentials } from "./db/client";

/**
 * Every message the job queues carry, one shape per kind (JOB_KINDS): a message goes to its
 * kind's queue, and that kind's worker parses it here and drops what does not fit.
 */
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
  // Deletes the uploads that nothing took within their day (UploadSweep.run); sent by a schedule.
  z.object({ type: z.literal("upload-sweep") }),
  // A user's account key moved (renewed, or reset after they lost it): their groups learn that their wraps are for the old key (GroupKeys.keyMoved).
  // movedAt (server time, ms, taken before the new key was stored): what was sealed for them before it is for an old key. Absent in jobs queued before it existed.
  z.object({ type: z.literal("key-moved"), userId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), movedAt: z.number().int().min(0).optional() }),
]);
export type JobMessage = z.infer<typeof JobMessage>;
export type Job<K extends JobKind> = Extract<JobMessage, { type: K }>;

// A message shape without a kind (so without a queue), or a kind without one, does not compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const everyKindHasAShape: Same<JobMessage["type"], JobKind> = true;
void everyKindHasAShape;

let client: SQSClient | undefined;

export function sqs(): SQSClient {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  client ??= new SQSClient({ region: AWS_REGION, ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT, credentials: localCredentials } : {}) });
  return client;
}

export namespace Queue {
  /** Puts a job on its kind's queue. */
  export async function send(message: JobMessage): Promise<void> {
    const job = JobMessage.parse(message);
    await sqs().send(new SendMessageCommand({ QueueUrl: config()[queueUrlSetting(job.type)], MessageBody: JSON.stringify(job) }));
  }

  /** Asks every kind's queue for its attributes (the health check); throws if one does not answer. */
  export async function probe(): Promise<void> {
    const settings = config();
    await Promise.all(
      JOB_KINDS.map((kind) => sqs().send(new GetQueueAttributesCommand({ QueueUrl: settings[queueUrlSetting(kind)], AttributeNames: ["QueueArn"] }))),
    );
  }
}
