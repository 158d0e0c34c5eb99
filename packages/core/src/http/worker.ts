import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { JobMessage } from "../queue";
import { logger } from "./logger";
import { loadBoundSecrets } from "./secrets";

/**
 * An SQS consumer over the jobs queue. A record that fails is reported back as a batch item
 * failure, so SQS retries it and, after the redrive limit, moves it to the dead-letter queue.
 * A record that is not a job message at all is logged and dropped: retrying cannot fix it.
 */
export function worker(fn: (job: JobMessage) => Promise<void>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    await loadBoundSecrets();
    const failures: SQSBatchResponse["batchItemFailures"] = [];
    for (const record of event.Records) {
      let job: JobMessage;
      try {
        job = JobMessage.parse(JSON.parse(record.body));
      } catch {
        logger.error("dropping malformed job", { messageId: record.messageId });
        continue;
      }
      try {
        await fn(job);
      } catch (error) {
        logger.error("job failed", { messageId: record.messageId, type: job.type, error: error as Error });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
}
