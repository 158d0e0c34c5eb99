import { AsyncLocalStorage } from "node:async_hooks";
import type { Grant, ObjectAction, TableAction } from "../../../stacks/permissions";

/**
 * The Lambdas' IAM policies, played locally: each area's handlers and each worker run as their
 * principal (AsyncLocalStorage), and every AWS SDK call they make (DynamoDB, S3, including presigned
 * URLs, SQS) is checked against that principal's grant from stacks/permissions.ts before it is
 * sent. A call the grant does not allow fails as AWS would fail it (AccessDenied), and is logged
 * with what was missing. Code outside a principal (the runtime's bootstrap, schedules) is not checked.
 */
export interface Principal {
  name: string;
  grant: Grant;
}

type Need =
  | { service: "dynamodb"; action: TableAction }
  | { service: "s3"; action: ObjectAction; key: string }
  | { service: "s3"; action: "ListBucket"; prefix?: string }
  | { service: "sqs"; action: "SendMessage" | "GetQueueAttributes"; queueUrl: string }
  | { service: "unknown"; action: string };

const principals = new AsyncLocalStorage<Principal>();

export function runAs<T>(principal: Principal, fn: () => T): T {
  return principals.run(principal, fn);
}

type Input = Record<string, unknown>;
const str = (value: unknown) => (typeof value === "string" ? value : "");

/** The item actions of a TransactWriteItems: IAM checks each one's own action. */
function transactionNeeds(input: Input): Need[] {
  return ((input.TransactItems as Input[] | undefined) ?? []).map((item) => ({
    service: "dynamodb" as const,
    action: item.Put ? "PutItem" : item.Update ? "UpdateItem" : item.Delete ? "DeleteItem" : "ConditionCheckItem",
  }));
}

/** The IAM actions an SDK command needs. (lib-dynamodb's commands, as ElectroDB sends them, and the plain client's.) */
function needs(command: string, input: Input): Need[] {
  const table = (action: TableAction): Need[] => [{ service: "dynamodb", action }];
  const object = (action: ObjectAction, key = str(input.Key)): Need => ({ service: "s3", action, key });
  switch (command) {
    case "GetCommand":
    case "GetItemCommand":
    case "TransactGetCommand":
    case "TransactGetItemsCommand":
      return table("GetItem");
    case "BatchGetCommand":
    case "BatchGetItemCommand":
      return table("BatchGetItem");
    case "QueryCommand":
      return table("Query");
    case "ScanCommand":
      return table("Scan");
    case "PutCommand":
    case "PutItemCommand":
      return table("PutItem");
    case "UpdateCommand":
    case "UpdateItemCommand":
      return table("UpdateItem");
    case "DeleteCommand":
    case "DeleteItemCommand":
      return table("DeleteItem");
    case "BatchWriteCommand":
    case "BatchWriteItemCommand":
      return table("BatchWriteItem");
    case "TransactWriteCommand":
    case "TransactWriteItemsCommand":
      return transactionNeeds(input);
    case "DescribeTableCommand":
      return table("DescribeTable");
    case "GetObjectCommand":
    case "HeadObjectCommand":
      return [object("GetObject")];
    case "PutObjectCommand":
    case "CreateMultipartUploadCommand":
    case "UploadPartCommand":
    case "CompleteMultipartUploadCommand":
      return [object("PutObject")];
    case "CopyObjectCommand":
      // CopySource is "<bucket>/<key>".
      return [object("PutObject"), object("GetObject", str(input.CopySource).replace(/^[^/]*\//, ""))];
    case "DeleteObjectCommand":
      return [object("DeleteObject")];
    case "DeleteObjectsCommand":
      return ((input.Delete as { Objects?: { Key?: string }[] } | undefined)?.Objects ?? []).map((o) => object("DeleteObject", str(o.Key)));
    case "AbortMultipartUploadCommand":
      return [object("AbortMultipartUpload")];
    case "ListPartsCommand":
      return [object("ListMultipartUploadParts")];
    case "ListObjectsV2Command":
      return [{ service: "s3", action: "ListBucket", prefix: str(input.Prefix) }];
    case "HeadBucketCommand":
      return [{ service: "s3", action: "ListBucket" }];
    case "SendMessageCommand":
    case "SendMessageBatchCommand":
      return [{ service: "sqs", action: "SendMessage", queueUrl: str(input.QueueUrl) }];
    case "GetQueueAttributesCommand":
      return [{ service: "sqs", action: "GetQueueAttributes", queueUrl: str(input.QueueUrl) }];
    default:
      // A command nobody mapped is refused, so it cannot slip past the grants.
      return [{ service: "unknown", action: command }];
  }
}

function allows(grant: Grant, need: Need, queueKind: (url: string) => string | undefined): boolean {
  switch (need.service) {
    case "dynamodb":
      return grant.table?.includes(need.action) ?? false;
    case "s3":
      if (need.action === "ListBucket") {
        if (grant.list === "bucket") return true;
        return need.prefix !== undefined && need.prefix !== "" && (grant.list ?? []).some((p) => need.prefix!.startsWith(p));
      }
      return (grant.objects ?? []).some((o) => o.actions.includes(need.action as ObjectAction) && o.prefixes.some((p) => (need as { key: string }).key.startsWith(p)));
    case "sqs": {
      const kind = queueKind(need.queueUrl);
      const kinds: string[] = (need.action === "SendMessage" ? grant.send : grant.queueAttributes) ?? [];
      return kind !== undefined && kinds.includes(kind);
    }
    default:
      return false;
  }
}

const describe = (need: Need) =>
  `${need.service}:${need.action}${"key" in need ? ` on ${need.key}` : ""}${"prefix" in need && need.prefix ? ` under ${need.prefix}` : ""}${"queueUrl" in need ? ` on ${need.queueUrl}` : ""}`;

type Handler = (args: { input: object }) => Promise<unknown>;
/** The middleware stack's add() for an initialize-step middleware. */
type AddInitialize = (middleware: (next: Handler, context: { commandName?: string }) => Handler, options: { step: "initialize"; name: string; priority: "high" }) => void;

/**
 * Checks every command `client` sends (or presigns: getSignedUrl runs the client's middleware too)
 * against the grant of the principal it runs as. `queueKind` names the job kind of a queue URL.
 */
export function enforceGrants(client: { middlewareStack: object }, queueKind: (url: string) => string | undefined = () => undefined): void {
  // Each client's add() is overloaded per step with its own types; only the initialize step is used.
  (client.middlewareStack as { add: AddInitialize }).add(
    (next, context) => async (args) => {
      const principal = principals.getStore();
      if (principal) {
        const missing = needs(context.commandName ?? "", args.input as Input).filter((need) => !allows(principal.grant, need, queueKind));
        if (missing.length) {
          const message = `${principal.name} is not authorized to perform ${missing.map(describe).join(", ")} (its grant in stacks/permissions.ts)`;
          console.error(`[iam] ${message}`);
          throw Object.assign(new Error(message), { name: "AccessDenied", $fault: "client", $metadata: { httpStatusCode: 403 } });
        }
      }
      return next(args);
    },
    { step: "initialize", name: "localGrants", priority: "high" },
  );
}
