import { DynamoDBClient, GetItemCommand, ScanCommand, TransactWriteItemsCommand } from "@aws-sdk/client-dynamodb";
import { CopyObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { SQSClient, SendMessageCommand } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { AREA_GRANTS, WORKER_GRANTS } from "../../../stacks/permissions";
import { enforceGrants, runAs } from "./iam";

/**
 * The grants of stacks/permissions.ts, enforced on SDK calls as IAM would. The clients never send:
 * a stub at the end of the initialize step answers in place of AWS, so only the check is tested.
 */
const credentials = { accessKeyId: "test", secretAccessKey: "test" };
const QUEUES: Record<string, string> = { mail: "http://sqs.local/000/mail", "purge-attachments": "http://sqs.local/000/purge-attachments" };

function stubbed<C extends { middlewareStack: object }>(client: C): C {
  enforceGrants(client, (url) => Object.entries(QUEUES).find(([, u]) => u === url)?.[0]);
  (client.middlewareStack as { add: (m: unknown, o: object) => void }).add(() => async () => ({ output: { $metadata: {} } }), { step: "initialize", name: "answerLocally", priority: "low" });
  return client;
}

const dynamo = stubbed(new DynamoDBClient({ region: "eu-central-2", credentials }));
const s3 = stubbed(new S3Client({ region: "eu-central-2", credentials }));
// No MD5 check of the (stubbed) answer.
const sqs = stubbed(new SQSClient({ region: "eu-central-2", credentials, md5: false }));

const as = (area: string) => <T>(fn: () => Promise<T>) => runAs({ name: `the ${area} area`, grant: AREA_GRANTS[area]! }, fn);
const denied = { name: "AccessDenied", $metadata: { httpStatusCode: 403 } };

describe("the local IAM grants", () => {
  it("let an area do what its grant says and nothing else", async () => {
    const users = as("users");
    await expect(users(() => dynamo.send(new GetItemCommand({ TableName: "t", Key: {} })))).resolves.toBeDefined();
    await expect(users(() => dynamo.send(new ScanCommand({ TableName: "t" })))).rejects.toMatchObject(denied);
    await expect(users(() => sqs.send(new SendMessageCommand({ QueueUrl: QUEUES.mail, MessageBody: "{}" })))).resolves.toBeDefined();
    await expect(users(() => sqs.send(new SendMessageCommand({ QueueUrl: QUEUES["purge-attachments"], MessageBody: "{}" })))).rejects.toMatchObject(denied);
    await expect(users(() => s3.send(new ListObjectsV2Command({ Bucket: "b", Prefix: "attachments/1/" })))).rejects.toMatchObject(denied);
  });

  it("check each item of a transaction by its own action", async () => {
    const write = (item: object) => dynamo.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: "t", Item: {} } }, item] }));
    await expect(as("instance")(() => write({ Update: { TableName: "t", Key: {}, UpdateExpression: "SET a = :a" } }))).resolves.toBeDefined();
    await expect(as("instance")(() => write({ Delete: { TableName: "t", Key: {} } }))).rejects.toMatchObject(denied);
    await expect(as("users")(() => write({ Delete: { TableName: "t", Key: {} } }))).resolves.toBeDefined();
  });

  it("hold bucket actions to their prefixes, for both keys of a copy", async () => {
    const conversations = as("conversations");
    const copy = (from: string, to: string) => s3.send(new CopyObjectCommand({ Bucket: "b", Key: to, CopySource: `b/${from}` }));
    await expect(conversations(() => copy("uploads/1/2", "attachments/1/2"))).resolves.toBeDefined();
    await expect(conversations(() => copy("elsewhere/x", "attachments/1/2"))).rejects.toMatchObject(denied);
    await expect(conversations(() => copy("uploads/1/2", "elsewhere/x"))).rejects.toMatchObject(denied);
    const purge = (prefix: string) => runAs({ name: "the purge worker", grant: WORKER_GRANTS["purge-attachments"] }, () => s3.send(new ListObjectsV2Command({ Bucket: "b", Prefix: prefix })));
    await expect(purge("uploads/1/")).resolves.toBeDefined();
    await expect(purge("")).rejects.toMatchObject(denied);
  });

  it("leave the runtime's own calls (outside any principal) alone", async () => {
    await expect(dynamo.send(new ScanCommand({ TableName: "t" }))).resolves.toBeDefined();
  });
});
