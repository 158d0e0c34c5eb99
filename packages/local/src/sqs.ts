import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";

/**
 * An SQS-compatible endpoint (the JSON 1.0 protocol that @aws-sdk/client-sqs speaks), with the
 * semantics workers rely on: visibility timeouts, receive counts, and redrive to a dead-letter
 * queue after maxReceiveCount receives. Queues and messages are kept under the data folder, so
 * a restart loses nothing. No SQS emulator installs here, hence this small one.
 */
interface StoredMessage {
  id: string;
  body: string;
  md5: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  receiptHandle?: string;
}

interface StoredQueue {
  name: string;
  attributes: Record<string, string>;
  messages: StoredMessage[];
}

export class SqsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const ACCOUNT = "000000000000";
const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

export class SqsStandIn {
  private queues = new Map<string, StoredQueue>();
  private saveTimer: NodeJS.Timeout | undefined;
  private readonly file: string;

  constructor(
    private readonly dir: string,
    public endpoint = "http://127.0.0.1",
    /** A save that failed in the background (the next change tries again); never thrown. */
    private readonly onSaveError: (error: Error) => void = (error) => console.error("[sqs] could not save the queues:", error),
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, "queues.json");
    try {
      for (const queue of JSON.parse(readFileSync(this.file, "utf8")) as StoredQueue[]) this.queues.set(queue.name, queue);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  queueUrl(name: string): string {
    return `${this.endpoint}/${ACCOUNT}/${name}`;
  }

  static arn(name: string): string {
    return `arn:aws:sqs:local:${ACCOUNT}:${name}`;
  }

  private byUrl(url: unknown): StoredQueue {
    const name = typeof url === "string" ? url.split("/").pop() : undefined;
    const queue = name ? this.queues.get(name) : undefined;
    if (!queue) throw new SqsError("QueueDoesNotExist", "The specified queue does not exist.");
    return queue;
  }

  createQueue(name: string, attributes: Record<string, string> = {}): string {
    if (!/^[A-Za-z0-9_-]{1,80}$/.test(name)) throw new SqsError("InvalidParameterValue", "Invalid queue name");
    const existing = this.queues.get(name);
    if (existing) existing.attributes = { ...existing.attributes, ...attributes };
    else this.queues.set(name, { name, attributes: { VisibilityTimeout: "30", ...attributes }, messages: [] });
    this.save();
    return this.queueUrl(name);
  }

  send(url: string, body: string, delaySeconds = 0): { MessageId: string; MD5OfMessageBody: string } {
    const queue = this.byUrl(url);
    if (typeof body !== "string" || body.length === 0) throw new SqsError("MissingParameter", "MessageBody is required");
    if (Buffer.byteLength(body) > 256 * 1024) throw new SqsError("InvalidParameterValue", "Message too long");
    const message: StoredMessage = { id: randomUUID(), body, md5: md5(body), sentAt: Date.now(), visibleAt: Date.now() + delaySeconds * 1000, receiveCount: 0 };
    queue.messages.push(message);
    this.save();
    return { MessageId: message.id, MD5OfMessageBody: message.md5 };
  }

  /** Visible messages, hidden for the visibility timeout; over-received ones go to the DLQ. */
  receive(url: string, max = 1, visibilityTimeout?: number) {
    const queue = this.byUrl(url);
    const now = Date.now();
    const timeout = visibilityTimeout ?? Number(queue.attributes.VisibilityTimeout ?? "30");
    const redrive = queue.attributes.RedrivePolicy ? (JSON.parse(queue.attributes.RedrivePolicy) as { deadLetterTargetArn: string; maxReceiveCount: number | string }) : undefined;
    const received: StoredMessage[] = [];
    for (const message of [...queue.messages]) {
      if (received.length >= max) break;
      if (message.visibleAt > now) continue;
      if (redrive && message.receiveCount >= Number(redrive.maxReceiveCount)) {
        this.moveToDeadLetter(queue, message, redrive.deadLetterTargetArn);
        continue;
      }
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + timeout * 1000;
      message.receiptHandle = `${message.id}:${randomUUID()}`;
      received.push(message);
    }
    if (received.length > 0 || redrive) this.save();
    return received.map((m) => ({
      MessageId: m.id,
      ReceiptHandle: m.receiptHandle!,
      MD5OfBody: m.md5,
      Body: m.body,
      Attributes: {
        ApproximateReceiveCount: String(m.receiveCount),
        SentTimestamp: String(m.sentAt),
        ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt),
        SenderId: ACCOUNT,
      },
    }));
  }

  private moveToDeadLetter(queue: StoredQueue, message: StoredMessage, arn: string) {
    const target = this.queues.get(arn.split(":").pop() ?? "");
    queue.messages = queue.messages.filter((m) => m !== message);
    if (target) target.messages.push({ ...message, receiveCount: 0, visibleAt: Date.now(), receiptHandle: undefined });
  }

  delete(url: string, receiptHandle: string): void {
    const queue = this.byUrl(url);
    const before = queue.messages.length;
    queue.messages = queue.messages.filter((m) => m.receiptHandle !== receiptHandle);
    if (queue.messages.length === before) throw new SqsError("ReceiptHandleIsInvalid", "The receipt handle is not valid.");
    this.save();
  }

  changeVisibility(url: string, receiptHandle: string, seconds: number): void {
    const message = this.byUrl(url).messages.find((m) => m.receiptHandle === receiptHandle);
    if (!message) throw new SqsError("ReceiptHandleIsInvalid", "The receipt handle is not valid.");
    message.visibleAt = Date.now() + seconds * 1000;
    this.save();
  }

  attributes(url: string): Record<string, string> {
    const queue = this.byUrl(url);
    const now = Date.now();
    return {
      ...queue.attributes,
      QueueArn: SqsStandIn.arn(queue.name),
      ApproximateNumberOfMessages: String(queue.messages.filter((m) => m.visibleAt <= now).length),
      ApproximateNumberOfMessagesNotVisible: String(queue.messages.filter((m) => m.visibleAt > now).length),
    };
  }

  /**
   * Dispatches one JSON 1.0 request ("X-Amz-Target: AmazonSQS.<Action>"). Never rejects: a client
   * that goes away mid-request or sends garbage gets an error answer (or none), not a crash.
   */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      // The client aborted the request: nobody is left to answer.
      res.destroy();
      return;
    }
    const action = String(req.headers["x-amz-target"] ?? "").replace(/^AmazonSQS\./, "");
    try {
      let input: Record<string, unknown>;
      try {
        input = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>) : {};
      } catch {
        throw new SqsError("SerializationException", "The request body is not valid JSON.");
      }
      if (typeof input !== "object" || input === null || Array.isArray(input)) throw new SqsError("SerializationException", "The request body is not a JSON object.");
      const output = this.dispatch(action, input);
      res.writeHead(200, { "content-type": "application/x-amz-json-1.0" }).end(JSON.stringify(output));
    } catch (error) {
      const type = error instanceof SqsError ? error.type : "InternalError";
      const status = error instanceof SqsError ? 400 : 500;
      if (!(error instanceof SqsError)) console.error(`[sqs] ${action || "(no action)"} failed:`, error);
      if (res.headersSent) return void res.destroy();
      res
        .writeHead(status, { "content-type": "application/x-amz-json-1.0" })
        .end(JSON.stringify({ __type: `com.amazonaws.sqs#${type}`, message: error instanceof SqsError ? error.message : "Internal error" }));
    }
  }

  private dispatch(action: string, input: Record<string, unknown>): unknown {
    const url = input.QueueUrl as string;
    switch (action) {
      case "CreateQueue":
        return { QueueUrl: this.createQueue(String(input.QueueName), (input.Attributes as Record<string, string>) ?? {}) };
      case "GetQueueUrl":
        return { QueueUrl: this.byUrl(this.queueUrl(String(input.QueueName))) && this.queueUrl(String(input.QueueName)) };
      case "ListQueues":
        return { QueueUrls: [...this.queues.keys()].map((name) => this.queueUrl(name)) };
      case "GetQueueAttributes":
        return { Attributes: this.attributes(url) };
      case "SendMessage":
        return this.send(url, input.MessageBody as string, Number(input.DelaySeconds ?? 0));
      case "SendMessageBatch": {
        const entries = (input.Entries as { Id: string; MessageBody: string; DelaySeconds?: number }[]) ?? [];
        return { Successful: entries.map((e) => ({ Id: e.Id, ...this.send(url, e.MessageBody, e.DelaySeconds ?? 0) })), Failed: [] };
      }
      case "ReceiveMessage":
        return { Messages: this.receive(url, Number(input.MaxNumberOfMessages ?? 1), input.VisibilityTimeout === undefined ? undefined : Number(input.VisibilityTimeout)) };
      case "DeleteMessage":
        this.delete(url, input.ReceiptHandle as string);
        return {};
      case "ChangeMessageVisibility":
        this.changeVisibility(url, input.ReceiptHandle as string, Number(input.VisibilityTimeout));
        return {};
      case "PurgeQueue":
        this.byUrl(url).messages = [];
        this.save();
        return {};
      default:
        throw new SqsError("InvalidAction", `The action ${action || "(none)"} is not valid for this endpoint.`);
    }
  }

  private save(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      try {
        this.flush();
      } catch (error) {
        this.onSaveError(error as Error);
      }
    }, 50);
  }

  /** Writes the queues to disk now (atomically); called on shutdown too, where it may throw. */
  flush(): void {
    clearTimeout(this.saveTimer);
    const temp = `${this.file}.tmp`;
    writeFileSync(temp, JSON.stringify([...this.queues.values()]));
    renameSync(temp, this.file);
  }
}
