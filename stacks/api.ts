import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { Function, Api as HttpApi, Config, use, type StackContext } from "sst/constructs";
import { servedRoutes, workers, type JobWorker } from "../functions/routes";
import { queueUrlSetting, type JobKind } from "../packages/core/src/config";
import { Queues } from "./queues";
import { Storage, isEphemeralStage, tenantSettings } from "./storage";

/**
 * Optional instance settings (see packages/core/src/config.ts) passed through to every function
 * when they are set at synth time (from `.env.<tenant>` or the CI environment).
 */
export const INSTANCE_SETTINGS = [
  "INSTANCE_TITLE",
  "INSTANCE_ENV",
  "MAIL_FROM",
  "TOKEN_TTL_SECONDS",
  "IDLE_TIMEOUT",
  "INDEX_CHARS",
  "DISABLE_SECURECODE",
  "DEFAULT_SECURECODE",
  "DISABLE_FEATURES",
  "LOGIN_MAX_FAILURES",
  "LOGIN_MAX_FAILURES_PER_IP",
  "LOGIN_LOCK_SECONDS",
] as const;

function instanceSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const name of INSTANCE_SETTINGS) {
    const value = env[name];
    if (value !== undefined && value !== "") settings[name] = value;
  }
  return settings;
}

/** "POST /api/users/{id}/login" → the SST route definition for its handler. */
export function apiRoutes(): Record<string, { function: { handler: string } }> {
  const routes: Record<string, { function: { handler: string } }> = {};
  for (const route of servedRoutes()) routes[`${route.method} ${route.path}`] = { function: { handler: route.handler } };
  return routes;
}

/**
 * The HTTP API (one route per entry of the route table) and one worker per job kind. Every Lambda of the
 * app lives in this stack so that they share one environment, one set of permissions and the
 * bound secrets.
 */
export function Api({ stack, app }: StackContext) {
  const { table, bucket } = use(Storage);
  const { queues } = use(Queues);
  const site = tenantSettings();

  // Values live in SSM: `npx sst secrets set JWT_PRIVATE_JWK … --stage <tenant>`. Bound
  // functions get SST_Secret_value_<NAME>; the core loads them at cold start.
  const jwtPrivateJwk = new Config.Secret(stack, "JWT_PRIVATE_JWK");
  const setupToken = new Config.Secret(stack, "SETUP_TOKEN");

  const tableArn = table.tableArn;
  const bucketArn = bucket.bucketArn;
  const permissions = [
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [
        "dynamodb:BatchGetItem",
        "dynamodb:BatchWriteItem",
        "dynamodb:ConditionCheckItem",
        "dynamodb:DeleteItem",
        "dynamodb:DescribeTable",
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:Query",
        "dynamodb:Scan",
        "dynamodb:UpdateItem",
      ],
      resources: [tableArn, `${tableArn}/index/*`],
    }),
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [
        "s3:GetObject",
        "s3:PutObject",
        "s3:DeleteObject",
        "s3:AbortMultipartUpload",
        "s3:ListMultipartUploadParts",
      ],
      resources: [`${bucketArn}/*`],
    }),
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ["s3:ListBucket", "s3:ListBucketMultipartUploads"],
      resources: [bucketArn],
    }),
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ["sqs:SendMessage", "sqs:GetQueueAttributes"],
      resources: Object.values(queues).map(({ queue }) => queue.queueArn),
    }),
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ["ses:SendEmail", "ses:SendRawEmail"],
      resources: [
        stack.formatArn({ service: "ses", resource: "identity", resourceName: "*" }),
        stack.formatArn({ service: "ses", resource: "configuration-set", resourceName: "*" }),
      ],
    }),
  ];

  const environment: Record<string, string> = {
    STAGE: app.stage,
    INSTANCE_NAME: app.stage,
    INSTANCE_ENV: isEphemeralStage(app.stage) ? "staging" : "production",
    TABLE_NAME: table.tableName,
    BUCKET_NAME: bucket.bucketName,
    ...Object.fromEntries(Object.entries(queues).map(([kind, { queue }]) => [queueUrlSetting(kind as JobKind), queue.queueUrl])),
    JWT_ISSUER: `sealwork:${app.stage}`,
    MAIL_TRANSPORT: "ses",
    ...(site.domain ? { MAIL_FROM: `no-reply@${site.domain}` } : {}),
    // Known at synth time only with a custom domain. Otherwise the Web stack binds the site to
    // every function (SST's site_url binding via SSM), which avoids an Api ↔ Web cycle.
    ...(site.siteUrl ? { APP_URL: site.siteUrl } : {}),
    ...instanceSettings(process.env),
  };

  stack.setDefaultFunctionProps({
    timeout: "20 seconds",
    memorySize: "1024 MB",
    environment,
    permissions,
    bind: [jwtPrivateJwk, setupToken],
  });

  const api = new HttpApi(stack, "Api", {
    cors: {
      // Bearer tokens, no cookies: "*" is safe when the site's URL is not known at synth time.
      allowOrigins: [site.siteUrl ?? "*"],
      allowHeaders: ["authorization", "content-type"],
      allowMethods: ["ANY"],
      maxAge: "10 minutes",
    },
    routes: apiRoutes(),
  });

  const consumers = new Map<JobKind, Function>();
  for (const [kind, worker] of Object.entries(workers) as Array<[JobKind, JobWorker]>) {
    const { queue } = queues[kind];
    queue.addConsumer(stack, {
      function: { handler: worker.handler, timeout: worker.timeoutSeconds },
      cdk: { eventSource: { batchSize: worker.batchSize, reportBatchItemFailures: true } },
    });
    consumers.set(kind, queue.consumerFunction as Function);
  }

  stack.addOutputs({ ApiUrl: api.url });

  return { api, consumers, secrets: { jwtPrivateJwk, setupToken } };
}
