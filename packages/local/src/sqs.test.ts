import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startDelivery } from "./deliver";
import { freePort } from "./ports";
import { SqsStandIn } from "./sqs";

describe("the SQS stand-in, through the AWS SDK", () => {
  let server: Server;
  let sqs: SqsStandIn;
  let client: SQSClient;
  let dir: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "sqs-test-"));
    const port = await freePort();
    sqs = new SqsStandIn(dir, `http://127.0.0.1:${port}`);
    server = createServer((req, res) => void sqs.handle(req, res));
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    client = new SQSClient({ region: "eu-central-2", endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
  });
  afterEach(async () => {
    client.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it("sends, hides a received message for the visibility timeout, and deletes it", async () => {
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: "work", Attributes: { VisibilityTimeout: "30" } }));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: '{"hello":"wörld"}' }));
    const first = await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ["All"] }));
    expect(first.Messages).toHaveLength(1);
    expect(first.Messages![0]!.Body).toBe('{"hello":"wörld"}');
    expect(first.Messages![0]!.Attributes?.ApproximateReceiveCount).toBe("1");
    expect((await client.send(new ReceiveMessageCommand({ QueueUrl }))).Messages ?? []).toHaveLength(0);

    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle: first.Messages![0]!.ReceiptHandle, VisibilityTimeout: 0 }));
    const second = await client.send(new ReceiveMessageCommand({ QueueUrl, MessageSystemAttributeNames: ["All"] }));
    expect(second.Messages![0]!.Attributes?.ApproximateReceiveCount).toBe("2");
    await client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: second.Messages![0]!.ReceiptHandle }));
    const attrs = await client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["All"] }));
    expect(attrs.Attributes).toMatchObject({ ApproximateNumberOfMessages: "0", ApproximateNumberOfMessagesNotVisible: "0" });
  });

  it("answers an unknown queue with the SDK's QueueDoesNotExist error", async () => {
    await expect(client.send(new SendMessageCommand({ QueueUrl: "http://127.0.0.1/000000000000/none", MessageBody: "x" }))).rejects.toMatchObject({
      name: "QueueDoesNotExist",
    });
  });

  it("keeps queues and messages across a restart", async () => {
    const url = sqs.createQueue("durable");
    sqs.send(url, "kept");
    sqs.flush();
    const reopened = new SqsStandIn(dir, sqs.endpoint);
    expect(reopened.receive(url, 10).map((m) => m.Body)).toEqual(["kept"]);
  });

  it("delivers SQS events to a worker, retries failures and moves them to the DLQ after maxReceiveCount", async () => {
    sqs.createQueue("dead");
    const url = sqs.createQueue("jobs", {
      VisibilityTimeout: "0",
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: SqsStandIn.arn("dead"), maxReceiveCount: 3 }),
    });
    sqs.send(url, "good");
    sqs.send(url, "poison");
    const seen: { body: string; count: string; source: string }[] = [];
    const delivery = startDelivery(
      sqs,
      "jobs",
      async (event) => {
        for (const r of event.Records) seen.push({ body: r.body, count: r.attributes.ApproximateReceiveCount, source: r.eventSource });
        return { batchItemFailures: event.Records.filter((r) => r.body === "poison").map((r) => ({ itemIdentifier: r.messageId })) };
      },
      { batchSize: 10, idleMs: 10 },
    );
    const deadline = Date.now() + 5000;
    while (sqs.attributes(sqs.queueUrl("dead")).ApproximateNumberOfMessages !== "1" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await delivery.stop();

    expect(seen.filter((s) => s.body === "good")).toEqual([{ body: "good", count: "1", source: "aws:sqs" }]);
    expect(seen.filter((s) => s.body === "poison").map((s) => s.count)).toEqual(["1", "2", "3"]);
    expect(sqs.attributes(url).ApproximateNumberOfMessages).toBe("0");
    expect(sqs.receive(sqs.queueUrl("dead"), 10).map((m) => m.Body)).toEqual(["poison"]);
  });
});
