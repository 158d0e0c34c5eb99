import { Duration } from "aws-cdk-lib";
import { Rule, RuleTargetInput, Schedule } from "aws-cdk-lib/aws-events";
import { SqsQueue as SqsQueueTarget } from "aws-cdk-lib/aws-events-targets";
import { Queue as SqsQueue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Queue, type StackContext } from "sst/constructs";
import { schedules } from "../functions/routes";

/** The jobs worker's Lambda timeout; the queue's visibility timeout is derived from it. */
export const WORKER_TIMEOUT_SECONDS = 120;

/** How often a job is tried before it is parked in the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

/**
 * The jobs queue (mail, exports, key fan-out, …) and its dead-letter queue. The consumer is
 * added by the Api stack, so the worker shares the API functions' environment and bindings.
 */
export function Queues({ stack, app }: StackContext) {
  const deadLetters = new SqsQueue(stack, "JobsDeadLetters", {
    queueName: app.logicalPrefixedName("JobsDeadLetters"),
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });

  const jobs = new Queue(stack, "Jobs", {
    cdk: {
      queue: {
        // AWS recommends six times the consumer's timeout, so a batch that is retried inside
        // one invocation never becomes visible to a second consumer.
        visibilityTimeout: Duration.seconds(WORKER_TIMEOUT_SECONDS * 6),
        retentionPeriod: Duration.days(4),
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: MAX_RECEIVE_COUNT },
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      },
    },
  });

  // Scheduled jobs (functions/routes.ts), beside the queue so its policy can name the rules.
  for (const schedule of schedules) {
    new Rule(stack, schedule.name, {
      schedule: Schedule.rate(Duration.minutes(schedule.everyMinutes)),
      targets: [new SqsQueueTarget(jobs.cdk.queue, { message: RuleTargetInput.fromObject(schedule.job) })],
    });
  }

  stack.addOutputs({ JobsQueueUrl: jobs.queueUrl, JobsDeadLetterQueueUrl: deadLetters.queueUrl });

  return { jobs, deadLetters };
}
