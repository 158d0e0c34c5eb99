import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import type { JobKind } from "../config";
import { JobMessage, type Job } from "../queue";
import { logger } from "./logger";
import { loadBoundSecrets } from "./secrets";

/**
 * The SQS consumer of one job kind's queue. A record that fails is reported back as a batch item
 * failure, so SQS retries it and, after the redrive limit, moves it to the kind's dead-letter
 * queue. A record that is not a job of this kind is logged and dropped: retrying cannot fix it.
 */
export function worker<K extends JobKind>(kind: K, fn: (job: Job<K>) => Promise<void>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    await loadBoundSecrets();
    const failures: SQSBatchResponse["batchItemFailures"] = [];
    for (const record of event.Records) {
      let job: Job<K>;
      try {
        const parsed = JobMessage.parse(JSON.parse(record.body));
        if (parsed.type !== kind) throw new Error(`a ${parsed.type} job on the ${kind} queue`);
        job = parsed as Job<K>;
      } catch {
        logger.error("dropping malformed job", { messageId: record.messageId, kind });
        continue;
      }
      try {
        await fn(job);
      } catch (error) {
        logger.error("job failed", { messageId: record.messageId, kind, error: error as Error });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
}
