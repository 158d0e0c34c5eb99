import { Duration } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { Rule, RuleTargetInput, Schedule } from "aws-cdk-lib/aws-events";
import { SqsQueue as SqsQueueTarget } from "aws-cdk-lib/aws-events-targets";
import { Topic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import { Queue as SqsQueue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Queue, type StackContext } from "sst/constructs";
import { schedules, workers, type JobWorker } from "../functions/routes";
import type { JobKind } from "../packages/core/src/config";
import { tenantSettings } from "./storage";

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
  // The operators' inbox for alarms: ALERT_EMAIL (tenant setting) is subscribed when set.
  const alerts = new Topic(stack, "Alerts", { displayName: `Sealwork ${app.stage} alerts` });
  const { alertEmail } = tenantSettings();
  if (alertEmail) alerts.addSubscription(new EmailSubscription(alertEmail));
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
    // A job that failed five times is parked: somebody has to look at it (and redrive it).
    new Alarm(stack, `${id}DeadLettersAlarm`, {
      alarmDescription: `A ${kind} job failed ${MAX_RECEIVE_COUNT} times and waits in ${id}DeadLetters (stage ${app.stage}).`,
      metric: deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: "Maximum" }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(new SnsAction(alerts));
    stack.addOutputs({ [`${id}QueueUrl`]: queue.queueUrl, [`${id}DeadLetterQueueUrl`]: deadLetters.queueUrl });
  }

  // Scheduled jobs (functions/routes.ts), beside the queues so that a queue's policy can name its rules.
  for (const schedule of schedules) {
    new Rule(stack, schedule.name, {
      schedule: Schedule.rate(Duration.minutes(schedule.everyMinutes)),
      targets: [new SqsQueueTarget(queues[schedule.job.type].queue.cdk.queue, { message: RuleTargetInput.fromObject(schedule.job) })],
    });
  }

  stack.addOutputs({ AlertsTopicArn: alerts.topicArn });

  return { queues, alerts };
}
