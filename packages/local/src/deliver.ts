import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import type { SqsStandIn } from "./sqs";
import { lambdaContext } from "./lambda-context";

type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/**
 * Plays Lambda's SQS event source: receives batches, calls the worker with the SQS event shape,
 * deletes what succeeded and leaves failures to reappear after the visibility timeout (and go
 * to the dead-letter queue after maxReceiveCount receives).
 */
export function startDelivery(sqs: SqsStandIn, queueName: string, handler: SqsHandler, options = { batchSize: 10, idleMs: 250 }) {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const url = sqs.queueUrl(queueName);

  async function pollOnce(): Promise<number> {
    const messages = sqs.receive(url, options.batchSize);
    if (messages.length === 0) return 0;
    const event: SQSEvent = {
      Records: messages.map((m) => ({
        messageId: m.MessageId,
        receiptHandle: m.ReceiptHandle,
        body: m.Body,
        attributes: m.Attributes as unknown as SQSEvent["Records"][number]["attributes"],
        messageAttributes: {},
        md5OfBody: m.MD5OfBody,
        eventSource: "aws:sqs",
        eventSourceARN: `arn:aws:sqs:local:000000000000:${queueName}`,
        awsRegion: "local",
      })),
    };
    let failed = new Set<string>();
    try {
      const result = await handler(event, lambdaContext(queueName));
      failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      // As on Lambda, a thrown error fails the whole batch.
      console.error(`[jobs] worker for ${queueName} threw:`, error);
      failed = new Set(messages.map((m) => m.MessageId));
    }
    for (const m of messages) if (!failed.has(m.MessageId)) sqs.delete(url, m.ReceiptHandle);
    return messages.length;
  }

  async function loop() {
    while (!stopped) {
      const handled = await pollOnce().catch((error: unknown) => {
        console.error(`[jobs] polling ${queueName} failed:`, error);
        return 0;
      });
      if (handled === 0) await new Promise((r) => setTimeout(r, options.idleMs));
    }
  }
  running = loop();

  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}
