import { HttpMethod, HttpNoneAuthorizer, HttpRoute, HttpRouteKey } from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import type { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { Function, Api as HttpApi, Config, use, type Stack, type StackContext } from "sst/constructs";
import { areaHandler } from "../functions/area-entries";
import { servedRoutes, workers, type JobWorker, type ServedRoute } from "../functions/routes";
import { queueUrlSetting, type JobKind } from "../packages/core/src/config";
import { nodejsBundling } from "./bundling";
import { AREA_GRANTS, WORKER_GRANTS, grantOf, type Grant } from "./permissions";
import { policyStatements, type GrantResources } from "./policies";
import { Queues, pascal } from "./queues";
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
  "DISABLE_FEATURES",
  "LOGIN_MAX_FAILURES",
  "LOGIN_MAX_FAILURES_PER_IP",
  "LOGIN_LOCK_SECONDS",
  "VERIFICATION_MAX_CODES",
  "PICKUP_MAX_PER_HOUR",
  "BACKUP_MAX_SAVES_PER_HOUR",
  "LOG_REQUESTS",
  "LOG_SLOW_MS",
] as const;

function instanceSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const name of INSTANCE_SETTINGS) {
    const value = env[name];
    if (value !== undefined && value !== "") settings[name] = value;
  }
  return settings;
}

/** What the Api stack needs of a route: where API Gateway matches it and which area serves it. */
export type ApiRoute = Pick<ServedRoute, "method" | "path" | "area">;

/** The HTTP API with one Lambda per area of the route table, and one worker per job kind. */
export function Api(context: StackContext) {
  return apiStack(context, servedRoutes());
}

/** How long the HTTP API's access logs (with client IPs) are kept. */
export const ACCESS_LOG_RETENTION = "one_month";

/**
 * The Api stack for a route table (the stack test synthesises generated ones too, with their own
 * grants). Every Lambda of the app lives here so that they share one environment and the bound
 * secrets; each has the permissions of its own grant only.
 */
export function apiStack({ stack, app }: StackContext, table: ApiRoute[], grants: Record<string, Grant> = AREA_GRANTS) {
  const { table: dynamoTable, bucket } = use(Storage);
  const { queues } = use(Queues);
  const site = tenantSettings();

  // Values live in SSM: `npx sst secrets set JWT_PRIVATE_JWK … --stage <tenant>`. Bound
  // functions get SST_Secret_value_<NAME>; the core loads them at cold start.
  const jwtPrivateJwk = new Config.Secret(stack, "JWT_PRIVATE_JWK");
  const setupToken = new Config.Secret(stack, "SETUP_TOKEN");

  // Each function's own policy: its area's or its job kind's grant (stacks/permissions.ts).
  const resources: GrantResources = {
    tableArn: dynamoTable.tableArn,
    bucketArn: bucket.bucketArn,
    queueArns: Object.fromEntries(Object.entries(queues).map(([kind, { queue }]) => [kind, queue.queueArn])) as Record<JobKind, string>,
    sesArns: [
      stack.formatArn({ service: "ses", resource: "identity", resourceName: "*" }),
      stack.formatArn({ service: "ses", resource: "configuration-set", resourceName: "*" }),
    ],
  };

  const environment: Record<string, string> = {
    STAGE: app.stage,
    INSTANCE_NAME: app.stage,
    INSTANCE_ENV: isEphemeralStage(app.stage) ? "staging" : "production",
    TABLE_NAME: dynamoTable.tableName,
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
    bind: [jwtPrivateJwk, setupToken],
  });

  const api = new HttpApi(stack, "Api", {
    // Client IPs are personal data: kept a month, like the functions' own logs.
    accessLog: { retention: ACCESS_LOG_RETENTION },
    // Per stage (tenant); every route shares it. Set per tenant with API_THROTTLE_RATE/_BURST.
    defaults: { throttle: site.throttle },
    cors: {
      // Bearer tokens, no cookies: "*" is safe when the site's URL is not known at synth time.
      allowOrigins: [site.siteUrl ?? "*"],
      allowHeaders: ["authorization", "content-type"],
      allowMethods: ["ANY"],
      maxAge: "10 minutes",
    },
  });
  const areas = serveAreas(stack, api, table, (area) => policyStatements(grantOf(grants, area), resources));

  const consumers = new Map<JobKind, Function>();
  for (const [kind, worker] of Object.entries(workers) as Array<[JobKind, JobWorker]>) {
    const { queue } = queues[kind];
    queue.addConsumer(stack, {
      function: { handler: worker.handler, timeout: worker.timeoutSeconds, permissions: policyStatements(WORKER_GRANTS[kind], resources) },
      cdk: { eventSource: { batchSize: worker.batchSize, reportBatchItemFailures: true } },
    });
    consumers.set(kind, queue.consumerFunction as Function);
  }

  stack.addOutputs({ ApiUrl: api.url });

  return { api, areas, consumers, functions: [...areas.values(), ...consumers.values()], secrets: { jwtPrivateJwk, setupToken } };
}

/**
 * One Lambda per area, and one integration for it that all of the area's routes share: per area a
 * function, its role, policy, log retention, integration and invoke permission; per route only
 * the API Gateway route. (SST's own `routes` would give each route an integration and a
 * permission of its own, 3 resources per route instead of 1.) The function reads the matched route
 * from the event's routeKey (functions/dispatch.ts).
 */
function serveAreas(stack: Stack, api: HttpApi, table: ApiRoute[], permissions: (area: string) => PolicyStatement[]): Map<string, Function> {
  const areas = new Map<string, { fn: Function; integration: HttpLambdaIntegration }>();
  for (const route of table) {
    let area = areas.get(route.area);
    if (!area) {
      const id = `${pascal(route.area)}Area`;
      const fn = new Function(stack, id, {
        handler: areaHandler(route.area),
        nodejs: nodejsBundling(),
        permissions: permissions(route.area),
        // As for the functions SST's Api makes: no SSM parameter for binding it to other functions.
        _doNotAllowOthersToBind: true,
      });
      // One permission for the whole API instead of one per route.
      area = { fn, integration: new HttpLambdaIntegration(`${id}Integration`, fn, { scopePermissionToRoute: false }) };
      areas.set(route.area, area);
    }
    // The construct ids SST's Api gives its routes, so a route keeps its logical id.
    new HttpRoute(api, `Route_${route.method}_${route.path}`, {
      httpApi: api.cdk.httpApi,
      routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
      integration: area.integration,
      authorizer: new HttpNoneAuthorizer(),
    });
  }
  return new Map([...areas].map(([name, { fn }]) => [name, fn]));
}
