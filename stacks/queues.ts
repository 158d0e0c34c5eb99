import { Duration } from "aws-cdk-lib";
import { Rule, RuleTargetInput, Schedule } from "aws-cdk-lib/aws-events";
import { SqsQueue as SqsQueueTarget } from "aws-cdk-lib/aws-events-targets";
import { Queue as SqsQueue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Queue, type StackContext } from "sst/constructs";
import { schedules, workers, type JobWorker } from "../functions/routes";
import type { JobKind } from "../packages/core/src/config";

/** How often a job is tried before it is parked in its kind's dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

/**
 * AWS recommends a visibility timeout of six times the consumer's timeout, so a batch that is
 * retried inside one invocation never becomes visible to a second consumer.
 */
export function visibilityTimeoutSeconds(worker: JobWorker): number {
  return worker.timeoutSeconds * 6;
}

/** "purge-attachments" → "PurgeAttachments": construct ids of a job kind or an area. */
export function pascal(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_m, _dash: string, c: string) => c.toUpperCase());
}

/** A kind's queue is the construct `<Kind>Jobs` ("MailJobs"), its dead-letter queue `<Kind>JobsDeadLetters`. */
export const queueId = (kind: JobKind) => `${pascal(kind)}Jobs`;

export interface JobQueues {
  queue: Queue;
  deadLetters: SqsQueue;
}

/**
 * One queue and one dead-letter queue per job kind (functions/routes.ts `workers`), and the
 * schedules that put jobs on them. The consumers are added by the Api stack, so the workers share
 * the API functions' environment and bindings.
 */
export function Queues({ stack, app }: StackContext) {
  const queues = {} as Record<JobKind, JobQueues>;
  for (const [kind, worker] of Object.entries(workers) as Array<[JobKind, JobWorker]>) {
    const id = queueId(kind);
    const deadLetters = new SqsQueue(stack, `${id}DeadLetters`, {
      queueName: app.logicalPrefixedName(`${id}DeadLetters`),
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const queue = new Queue(stack, id, {
      cdk: {
        queue: {
          visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(worker)),
          retentionPeriod: Duration.days(4),
          deadLetterQueue: { queue: deadLetters, maxReceiveCount: MAX_RECEIVE_COUNT },
          encryption: QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
        },
      },
    });
    queues[kind] = { queue, deadLetters };
    stack.addOutputs({ [`${id}QueueUrl`]: queue.queueUrl, [`${id}DeadLetterQueueUrl`]: deadLetters.queueUrl });
  }

  // Scheduled jobs (functions/routes.ts), beside the queues so that a queue's policy can name its rules.
  for (const schedule of schedules) {
    new Rule(stack, schedule.name, {
      schedule: Schedule.rate(Duration.minutes(schedule.everyMinutes)),
      targets: [new SqsQueueTarget(queues[schedule.job.type].queue.cdk.queue, { message: RuleTargetInput.fromObject(schedule.job) })],
    });
  }

  return { queues };
}
