import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { HeadBucketCommand } from "@aws-sdk/client-s3";
import { config } from "../config";
import { dynamo } from "../db/client";
import { Queue } from "../queue";
import { s3 } from "../storage";

/** Whether the table, bucket and job queues answer. Failures are reported, never thrown. */
export namespace Health {
  export async function check() {
    const c = config();
    const [table, bucket, queue] = await Promise.all([
      probe(async () => {
        const { Table } = await dynamo().send(new DescribeTableCommand({ TableName: c.TABLE_NAME }));
        return Table?.TableStatus === "ACTIVE" ? "ok" : `status ${Table?.TableStatus ?? "unknown"}`;
      }),
      probe(async () => (await s3().send(new HeadBucketCommand({ Bucket: c.BUCKET_NAME })), "ok")),
      probe(async () => (await Queue.probe(), "ok")),
    ]);
    const status: "ok" | "degraded" = [table, bucket, queue].every((s) => s === "ok") ? "ok" : "degraded";
    return { status, table, bucket, queue };
  }
}

async function probe(check: () => Promise<string>): Promise<string> {
  try {
    return await check();
  } catch (error) {
    // Only the error's class goes out: its message may name internal endpoints.
    return `unavailable (${error instanceof Error ? error.name : "error"})`;
  }
}
