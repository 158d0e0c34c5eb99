import type { SQSEvent } from "aws-lambda";
import { beforeAll, describe, expect, it } from "vitest";
import type { Job } from "../queue";

// The logger reads its level when it is created, at import.
let worker: typeof import("./worker").worker;

function event(...bodies: string[]): SQSEvent {
  return { Records: bodies.map((body, i) => ({ messageId: `m${i}`, body }) as SQSEvent["Records"][number]) };
}

describe("a job kind's worker", () => {
  beforeAll(async () => {
    process.env.POWERTOOLS_LOG_LEVEL = "SILENT";
    ({ worker } = await import("./worker"));
  });

  it("runs each job of its kind and reports the ones that failed as batch item failures", async () => {
    const seen: number[] = [];
    const handler = worker("purge-attachments", async (job: Job<"purge-attachments">) => {
      seen.push(job.conversationId);
      if (job.conversationId === 2) throw new Error("S3 is down");
    });
    const result = await handler(
      event(...[1, 2, 3].map((conversationId) => JSON.stringify({ type: "purge-attachments", conversationId }))),
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: "m1" }] });
  });

  it("drops malformed messages and jobs of another kind without retrying them", async () => {
    const seen: string[] = [];
    const handler = worker("pickup-sweep", async (job) => void seen.push(job.type));
    const result = await handler(
      event("not json", JSON.stringify({ type: "pickup-sweep" }), JSON.stringify({ type: "purge-attachments", conversationId: 1 }), JSON.stringify({ type: "nope" })),
    );
    expect(seen).toEqual(["pickup-sweep"]);
    expect(result).toEqual({ batchItemFailures: [] });
  });
});
