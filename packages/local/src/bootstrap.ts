import { CreateTableCommand, DescribeTableCommand, ResourceNotFoundException, UpdateTimeToLiveCommand, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
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

/** The jobs queue and its dead-letter queue, as the Queues stack defines them. */
export const JOBS_MAX_RECEIVES = 5;

export function ensureQueues(sqs: SqsStandIn): { jobsUrl: string } {
  sqs.createQueue("jobs-dlq", { MessageRetentionPeriod: String(14 * 24 * 3600) });
  const jobsUrl = sqs.createQueue("jobs", {
    VisibilityTimeout: "30",
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: SqsStandIn.arn("jobs-dlq"), maxReceiveCount: JOBS_MAX_RECEIVES }),
  });
  return { jobsUrl };
}
