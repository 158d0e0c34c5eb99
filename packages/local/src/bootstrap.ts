import { CreateTableCommand, DescribeTableCommand, ResourceNotFoundException, UpdateTimeToLiveCommand, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { JOB_KINDS, type JobKind } from "@sealwork/core/config";
import { TABLE, keyAttributes } from "@sealwork/core/db/table";
import { SqsStandIn } from "./sqs";

/** Creates the table as the Storage stack does (same keys, indexes and TTL), if missing. */
export async function ensureTable(client: DynamoDBClient, name: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: keyAttributes().map((AttributeName) => ({ AttributeName, AttributeType: "S" })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: "HASH" },
        { AttributeName: TABLE.sortKey, KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: Object.entries(TABLE.indexes).map(([IndexName, index]) => ({
        IndexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: "HASH" },
          { AttributeName: index.sortKey, KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "ALL" },
      })),
    }),
  );
  await client.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true } }));
}

/** How often a job is received before it goes to its kind's dead-letter queue, as on AWS. */
export const JOBS_MAX_RECEIVES = 5;

/**
 * One queue and one dead-letter queue per job kind, as the Queues stack defines them: "mail" and
 * "mail-dlq", and so on. Locally a failed job comes back after 30 s, whatever its worker's timeout.
 */
export function ensureQueues(sqs: SqsStandIn): Record<JobKind, string> {
  const urls = {} as Record<JobKind, string>;
  for (const kind of JOB_KINDS) {
    sqs.createQueue(`${kind}-dlq`, { MessageRetentionPeriod: String(14 * 24 * 3600) });
    urls[kind] = sqs.createQueue(kind, {
      VisibilityTimeout: "30",
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: SqsStandIn.arn(`${kind}-dlq`), maxReceiveCount: JOBS_MAX_RECEIVES }),
    });
  }
  return urls;
}
