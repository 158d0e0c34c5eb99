/**
 * The SST stacks, synthesised offline and checked with CDK Template assertions.
 *
 * How it stays offline and fast: sst.config.ts is loaded with initProject (as the CLI does) and
 * its stacks run in a deploy-mode App with a dummy account. NODE_ENV=test (vitest) makes SST
 * skip the bootstrap-bucket lookup. Only the Web stack is "active": in inactive stacks SST gives
 * functions placeholder code instead of bundling them with esbuild, while every other resource
 * (routes, permissions, environment, event sources) is synthesised as for a deploy. The Web stack
 * must be active for the CloudFront distribution to exist; it uploads a tiny prebuilt folder
 * (PREBUILT_WEB_CONTEXT) instead of running `npm run build`.
 *
 * STACKS_TEST_BUNDLE=1 makes every stack of the "test" stage active, so SST also bundles each
 * handler with esbuild as `sst deploy` would (about 30 s more).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Stack, type CfnElement } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import type { IConstruct } from "constructs";
import { App, getStack, use, useFunctions, type FunctionProps, type StackContext } from "sst/constructs";
import { initProject, useProject } from "sst/project.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { areaHandler } from "../../functions/area-entries";
import { handlerModule, routesByArea, schedules, servedRoutes, workers, type JobWorker } from "../../functions/routes";
import { JOB_KINDS, queueUrlSetting, type JobKind } from "../../packages/core/src/config";
import { TABLE, keyAttributes } from "../../packages/core/src/db/table";
import { STAGED_UPLOADS } from "../../packages/core/src/storage";
import config from "../../sst.config";
import { Api, INSTANCE_SETTINGS, apiStack, type ApiRoute } from "../../stacks/api";
import { AREA_GRANTS, WORKER_GRANTS } from "../../stacks/permissions";
import { MAX_RECEIVE_COUNT, Queues, visibilityTimeoutSeconds } from "../../stacks/queues";
import { DEFAULT_THROTTLE, Storage } from "../../stacks/storage";
import { PREBUILT_WEB_CONTEXT, Web, webBuildEnvironment } from "../../stacks/web";
import { BUILD_SETTING_NAMES } from "../../web/build-settings";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const region = "eu-central-2";
const account = "123456789012";

interface Synthesised {
  storage: Template;
  queues: Template;
  api: Template;
  web: Template;
  /** Area → logical id of its function in the Api stack, and its props as registered with SST's builder. */
  areas: Map<string, { logicalId: string; props: FunctionProps }>;
  /** Job kind → its worker's logical id and props, its queue's and dead-letter queue's logical ids. */
  kinds: Map<JobKind, { logicalId: string; props: FunctionProps; queueId: string; deadLettersId: string }>;
}

const bundle = process.env.STACKS_TEST_BUNDLE === "1";

let scratch: string;

/** Tenant settings the stacks read from the environment at synth time: none leak in from outside. */
const SETTINGS = ["SITE_DOMAIN", "SITE_HOSTED_ZONE", "API_THROTTLE_RATE", "API_THROTTLE_BURST", "ALERT_EMAIL", ...INSTANCE_SETTINGS, ...BUILD_SETTING_NAMES];

async function synthesise(stage: string, settings: Record<string, string> = {}): Promise<Synthesised> {
  for (const name of SETTINGS) delete process.env[name];
  Object.assign(process.env, settings);
  try {
    return await synthesiseApp(stage);
  } finally {
    for (const name of SETTINGS) delete process.env[name];
  }
}

async function newApp(stage: string, activeStack: (stackName: string) => boolean): Promise<App> {
  await initProject({ root, stage, region });
  return new App(
    { mode: "deploy", name: useProject().config.name, stage, region, account, isActiveStack: activeStack },
    {
      outdir: fs.mkdtempSync(path.join(scratch, "cdk-out-")),
      context: { [PREBUILT_WEB_CONTEXT]: path.join(scratch, "web") },
    },
  );
}

function logicalId(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
}

async function synthesiseApp(stage: string): Promise<Synthesised> {
  // Bundling is the same for every stage: do it once, for the main "test" stage.
  const app = await newApp(stage, (stackName) => (bundle && stage === "test") || stackName.endsWith("-Web"));
  await config.stacks(app);
  await app.finish();

  const built = use(Api);
  const { queues } = use(Queues);
  const propsOf = (fn: { node: { addr: string } }) => useFunctions().fromID(fn.node.addr)!;
  const areas = new Map([...built.areas].map(([area, fn]) => [area, { logicalId: logicalId(fn), props: propsOf(fn) }]));
  const kinds = new Map(
    [...built.consumers].map(([kind, fn]) => [
      kind,
      { logicalId: logicalId(fn), props: propsOf(fn), queueId: logicalId(queues[kind].queue.cdk.queue), deadLettersId: logicalId(queues[kind].deadLetters) },
    ]),
  );

  return {
    storage: Template.fromStack(getStack(Storage)),
    queues: Template.fromStack(getStack(Queues)),
    api: Template.fromStack(getStack(Api)),
    web: Template.fromStack(getStack(Web)),
    areas,
    kinds,
  };
}

/**
 * The Api stack of the app with another route table: sst.config.ts's stacks, with `table` in
 * place of the route table and without the Web stack (it adds no resource to the Api stack).
 */
async function synthesiseApiWith(table: ApiRoute[]): Promise<Template> {
  const app = await newApp("size", () => false);
  // Each made-up area reads the table, as every real one does.
  const grants = Object.fromEntries(table.map((route) => [route.area, { table: ["GetItem" as const] }]));
  const generatedApi = (context: StackContext) => apiStack(context, table, grants);
  const original = app.stack.bind(app);
  app.stack = ((fn: Parameters<App["stack"]>[0], props?: Parameters<App["stack"]>[1]) => {
    if (fn === Web) return app;
    return original(fn === Api ? generatedApi : fn, props);
  }) as App["stack"];
  await config.stacks(app);
  await app.finish();
  return Template.fromStack(getStack(generatedApi));
}

/** A made-up table: `perArea` GET routes in each of `areas` areas. */
function generatedTable(areas: number, perArea: number): ApiRoute[] {
  return Array.from({ length: areas }, (_, a) =>
    Array.from({ length: perArea }, (_, r) => ({ method: "GET" as const, path: `/api/area-${a}/route-${r}`, area: `area-${a}` })),
  ).flat();
}

const resourceCount = (template: Template) => Object.keys(template.toJSON().Resources as object).length;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- synthesised CloudFormation JSON
type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };

/** A synthesised string (maybe an Fn::Join of cross-stack imports) with each import as "<import:name>". */
function resolveJoin(value: unknown): string {
  if (typeof value === "string") return value;
  const join = (value as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  if (join) return join[1].map(resolveJoin).join(join[0]);
  const imported = (value as { "Fn::ImportValue"?: string })["Fn::ImportValue"];
  if (imported) return `<import:${imported}>`;
  return `<${JSON.stringify(value)}>`;
}

function resources(template: Template, type: string, props: object = {}): Array<[string, Resource]> {
  return Object.entries(template.findResources(type, props)) as Array<[string, Resource]>;
}

function only(template: Template, type: string, props: object = {}): { logicalId: string; resource: Resource } {
  const found = resources(template, type, props);
  expect(found, `exactly one ${type}`).toHaveLength(1);
  const [logicalId, resource] = found[0]!;
  return { logicalId, resource };
}

/** Lambda functions of ours: not CDK/SST helpers (custom resources, log retention). */
function appFunctions(template: Template): Resource[] {
  return resources(template, "AWS::Lambda::Function", {
    Properties: { Environment: { Variables: { TABLE_NAME: Match.anyValue() } } },
  }).map(([, fn]) => fn);
}

/** What a function's role is allowed, with the table, bucket and queue ARNs as readable markers. */
function grantedBy(template: Template, functionId: string) {
  const roleId = resource(template, functionId).Properties.Role["Fn::GetAtt"][0] as string;
  const statements = resources(template, "AWS::IAM::Policy")
    .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, string[]>> }>);
  const marker = (on: unknown) =>
    resolveJoin(on)
      .replace(/<import:[^>]*Table[^>]*>/, "<table>")
      .replace(/<import:[^>]*Files[^>]*>/, "<bucket>");
  const of = (prefix: string) => statements.filter((st) => ([] as string[]).concat(st.Action).some((a) => a.startsWith(prefix)));
  const actionsOf = (prefix: string) => [...new Set(of(prefix).flatMap((st) => ([] as string[]).concat(st.Action).filter((a) => a.startsWith(prefix))))].sort();
  const resourcesOf = (sts: typeof statements) => [...new Set(sts.flatMap((st) => ([] as unknown[]).concat(st.Resource).map(marker)))].sort();
  const withAction = (action: string) => statements.filter((st) => ([] as string[]).concat(st.Action).includes(action));
  return {
    table: actionsOf("dynamodb:"),
    tableResources: resourcesOf(of("dynamodb:")),
    objects: [...new Set(of("s3:").flatMap((st) => ([] as string[]).concat(st.Action).filter((a) => a !== "s3:ListBucket").flatMap((a) => ([] as unknown[]).concat(st.Resource).map((r) => `${a} ${marker(r)}`))))].sort(),
    list: withAction("s3:ListBucket").flatMap((st) => (st.Condition ? st.Condition.StringLike!["s3:prefix"]!.map((p) => `<bucket> under ${p}`) : ["<bucket>"])).sort(),
    send: resourcesOf(withAction("sqs:SendMessage")),
    // Not the event source's own statement on a worker's queue (ReceiveMessage, GetQueueAttributes, …).
    queueAttributes: resourcesOf(withAction("sqs:GetQueueAttributes").filter((st) => !([] as string[]).concat(st.Action).includes("sqs:ReceiveMessage"))),
    mail: withAction("ses:SendEmail").length > 0,
  };
}

/** The Api stack's resource of a logical id. */
function resource(template: Template, logicalId: string): Resource {
  const found = (template.toJSON().Resources as Record<string, Resource>)[logicalId];
  expect(found, logicalId).toBeDefined();
  return found!;
}

let prod: Synthesised;
let throwaway: Synthesised;
let withDomain: Synthesised;

beforeAll(async () => {
  process.env.NODE_ENV = "test";
  // Never reach AWS, even if the machine has credentials configured.
  process.env.AWS_ACCESS_KEY_ID = "AKIAOFFLINETEST00000";
  process.env.AWS_SECRET_ACCESS_KEY = "offline";
  delete process.env.AWS_PROFILE;

  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sealwork-stacks-"));
  fs.mkdirSync(path.join(scratch, "web"));
  fs.writeFileSync(path.join(scratch, "web", "index.html"), "<!doctype html><title>Sealwork</title>");

  prod = await synthesise("test");
  throwaway = await synthesise("pr-1");
  withDomain = await synthesise("own-domain", {
    SITE_DOMAIN: "acme.example.com",
    SITE_HOSTED_ZONE: "example.com",
    INSTANCE_TITLE: "Acme",
    API_THROTTLE_RATE: "50",
    API_THROTTLE_BURST: "120",
    ALERT_EMAIL: "ops@acme.example.com",
    DISABLE_SECURECODE: "true",
    DEFAULT_SECURECODE: "acme-default-code-1",
  });
}, 120_000);

afterAll(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe("Storage", () => {
  it("has one table shaped by TABLE: pk/sk, both GSIs, TTL, PITR, on demand", () => {
    const { resource } = only(prod.storage, "AWS::DynamoDB::Table");
    const p = resource.Properties;
    expect(p.KeySchema).toEqual([
      { AttributeName: TABLE.partitionKey, KeyType: "HASH" },
      { AttributeName: TABLE.sortKey, KeyType: "RANGE" },
    ]);
    expect(p.AttributeDefinitions).toEqual(
      expect.arrayContaining(keyAttributes().map((name) => ({ AttributeName: name, AttributeType: "S" }))),
    );
    expect(p.AttributeDefinitions).toHaveLength(keyAttributes().length);
    const indexes = p.GlobalSecondaryIndexes as Array<{ IndexName: string; KeySchema: unknown; Projection: unknown }>;
    expect(indexes.map((i) => i.IndexName).sort()).toEqual(Object.keys(TABLE.indexes).sort());
    for (const [name, index] of Object.entries(TABLE.indexes)) {
      expect(indexes.find((i) => i.IndexName === name)).toMatchObject({
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: "HASH" },
          { AttributeName: index.sortKey, KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "ALL" },
      });
    }
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: TABLE.ttlAttribute, Enabled: true });
    expect(p.PointInTimeRecoverySpecification).toMatchObject({ PointInTimeRecoveryEnabled: true });
    expect(p.BillingMode).toBe("PAY_PER_REQUEST");
  });

  it("retains the table in a tenant stage and removes it in a throwaway stage", () => {
    const kept = only(prod.storage, "AWS::DynamoDB::Table").resource;
    expect(kept.DeletionPolicy).toBe("Retain");
    expect(kept.Properties.DeletionProtectionEnabled).toBe(true);
    const dropped = only(throwaway.storage, "AWS::DynamoDB::Table").resource;
    expect(dropped.DeletionPolicy).toBe("Delete");
    expect(dropped.Properties.DeletionProtectionEnabled).toBe(false);
  });

  it("has a private, encrypted files bucket with CORS for uploads, an abort rule for multipart uploads and an expiry for staged ones", () => {
    const { logicalId, resource: bucket } = only(prod.storage, "AWS::S3::Bucket");
    expect(bucket.DeletionPolicy).toBe("Retain");
    const p = bucket.Properties;
    expect(p.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(p.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
    });
    const [cors] = p.CorsConfiguration.CorsRules;
    expect([...cors.AllowedMethods].sort()).toEqual(["GET", "HEAD", "PUT"]);
    expect(cors.AllowedOrigins).toEqual(["*"]);
    expect(cors.ExposedHeaders).toContain("ETag");
    expect(p.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: "Enabled" }),
    );
    // Staged single-part uploads (copied to the file's key on completion) expire after a day.
    expect(p.LifecycleConfiguration.Rules).toContainEqual(expect.objectContaining({ Prefix: STAGED_UPLOADS, ExpirationInDays: 1, Status: "Enabled" }));
    // enforceSSL: the bucket policy denies any request made without TLS.
    prod.storage.hasResourceProperties("AWS::S3::BucketPolicy", {
      Bucket: { Ref: logicalId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
        ]),
      },
    });
  });
});

describe("Queues", () => {
  const kinds = Object.entries(workers) as Array<[JobKind, JobWorker]>;

  it("has a queue and a dead-letter queue for every job kind, the queue redriving to its own", () => {
    expect(Object.keys(workers).sort()).toEqual([...JOB_KINDS].sort());
    prod.queues.resourceCountIs("AWS::SQS::Queue", 2 * JOB_KINDS.length);
    const deadLetters = new Set<string>();
    for (const [kind] of kinds) {
      const { queueId, deadLettersId } = prod.kinds.get(kind)!;
      expect(resource(prod.queues, queueId).Properties.RedrivePolicy, kind).toEqual({
        deadLetterTargetArn: { "Fn::GetAtt": [deadLettersId, "Arn"] },
        maxReceiveCount: MAX_RECEIVE_COUNT,
      });
      expect(resource(prod.queues, deadLettersId).Type).toBe("AWS::SQS::Queue");
      deadLetters.add(deadLettersId);
    }
    expect(deadLetters.size).toBe(JOB_KINDS.length);
  });

  it("encrypts every queue with SQS-managed keys and refuses requests without TLS", () => {
    for (const [logicalId, queue] of resources(prod.queues, "AWS::SQS::Queue")) {
      expect(queue.Properties.SqsManagedSseEnabled, logicalId).toBe(true);
      prod.queues.hasResourceProperties("AWS::SQS::QueuePolicy", {
        Queues: [{ Ref: logicalId }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } })]),
        },
      });
    }
  });

  it("has each kind's worker consume its queue, with its own timeout below the visibility timeout", () => {
    const mappings = resources(prod.api, "AWS::Lambda::EventSourceMapping").map(([, m]) => m.Properties);
    expect(mappings).toHaveLength(JOB_KINDS.length);
    for (const [kind, worker] of kinds) {
      const { logicalId, props, queueId } = prod.kinds.get(kind)!;
      expect(props.handler).toBe(worker.handler);
      const mapping = mappings.find((m) => m.FunctionName.Ref === logicalId);
      expect(mapping, kind).toMatchObject({
        BatchSize: worker.batchSize,
        FunctionResponseTypes: ["ReportBatchItemFailures"],
        EventSourceArn: { "Fn::ImportValue": expect.stringContaining(queueId) },
      });
      const fn = resource(prod.api, logicalId);
      expect(fn.Properties.Timeout).toBe(worker.timeoutSeconds);
      const visibility = resource(prod.queues, queueId).Properties.VisibilityTimeout;
      expect(visibility).toBe(visibilityTimeoutSeconds(worker));
      expect(visibility).toBeGreaterThan(fn.Properties.Timeout);
    }
  });

  it("raises an alarm to the alerts topic as soon as a job lands in a dead-letter queue", () => {
    const { logicalId: topicId } = only(prod.queues, "AWS::SNS::Topic");
    const alarms = resources(prod.queues, "AWS::CloudWatch::Alarm").map(([, a]) => a.Properties);
    expect(alarms).toHaveLength(JOB_KINDS.length);
    for (const [kind] of kinds) {
      const { deadLettersId } = prod.kinds.get(kind)!;
      const alarm = alarms.find((a) => JSON.stringify(a.Dimensions).includes(deadLettersId));
      expect(alarm, kind).toMatchObject({
        Namespace: "AWS/SQS",
        MetricName: "ApproximateNumberOfMessagesVisible",
        Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [deadLettersId, "QueueName"] } }],
        Threshold: 1,
        ComparisonOperator: "GreaterThanOrEqualToThreshold",
        EvaluationPeriods: 1,
        TreatMissingData: "notBreaching",
        AlarmActions: [{ Ref: topicId }],
      });
    }
    // Mailed to the tenant's ALERT_EMAIL when it has one.
    prod.queues.resourceCountIs("AWS::SNS::Subscription", 0);
    withDomain.queues.hasResourceProperties("AWS::SNS::Subscription", { Protocol: "email", Endpoint: "ops@acme.example.com" });
  });

  it("puts each scheduled job on its kind's queue at its rate (the pickup sweep)", () => {
    const rules = resources(prod.queues, "AWS::Events::Rule");
    expect(rules).toHaveLength(schedules.length);
    for (const schedule of schedules) {
      const rule = rules.map(([, r]) => r).find((r) => JSON.parse(r.Properties.Targets[0].Input).type === schedule.job.type)!;
      expect(rule.Properties.Targets).toHaveLength(1);
      expect(JSON.parse(rule.Properties.Targets[0].Input)).toEqual(schedule.job);
      // CDK writes whole hours as "rate(1 hour)".
      const hours = schedule.everyMinutes / 60;
      expect(rule.Properties.ScheduleExpression).toBe(Number.isInteger(hours) ? `rate(${hours} hour${hours === 1 ? "" : "s"})` : `rate(${schedule.everyMinutes} minutes)`);
      expect(rule.Properties.Targets[0].Arn).toEqual({ "Fn::GetAtt": [prod.kinds.get(schedule.job.type)!.queueId, "Arn"] });
    }
  });
});

describe("Api", () => {
  it("has exactly one HTTP API route per entry of the route table", () => {
    only(prod.api, "AWS::ApiGatewayV2::Api", { Properties: { ProtocolType: "HTTP" } });
    const routeKeys = resources(prod.api, "AWS::ApiGatewayV2::Route").map(([, route]) => route.Properties.RouteKey as string);
    const expected = servedRoutes().map((route) => `${route.method} ${route.path}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(routeKeys.sort()).toEqual([...expected].sort());
  });

  it("serves each route with its area's function, through one integration and one permission per area", () => {
    const integrations = new Map(resources(prod.api, "AWS::ApiGatewayV2::Integration"));
    const routeResources = resources(prod.api, "AWS::ApiGatewayV2::Route").map(([, r]) => r.Properties);
    expect([...prod.areas.keys()].sort()).toEqual([...routesByArea().keys()].sort());
    expect(integrations.size).toBe(prod.areas.size);
    for (const route of servedRoutes()) {
      const key = `${route.method} ${route.path}`;
      const served = routeResources.find((r) => r.RouteKey === key)!;
      expect(served.AuthorizationType, key).toBe("NONE");
      const integrationId = (served.Target["Fn::Join"][1] as unknown[]).map((part) => (part as { Ref?: string }).Ref).find(Boolean)!;
      const integration = integrations.get(integrationId)!;
      expect(integration.Properties).toMatchObject({ IntegrationType: "AWS_PROXY", PayloadFormatVersion: "2.0" });
      expect(integration.Properties.IntegrationUri, key).toEqual({ "Fn::GetAtt": [prod.areas.get(route.area)!.logicalId, "Arn"] });
    }
    const permissions = resources(prod.api, "AWS::Lambda::Permission").map(([, p]) => p.Properties);
    expect(permissions).toHaveLength(prod.areas.size);
    for (const { logicalId } of prod.areas.values()) {
      const permission = permissions.find((p) => p.FunctionName["Fn::GetAtt"][0] === logicalId)!;
      expect(permission).toMatchObject({ Action: "lambda:InvokeFunction", Principal: "apigateway.amazonaws.com" });
      expect(JSON.stringify(permission.SourceArn)).toContain("/*/*/*");
    }
  });

  it("runs each area's entry and each worker on nodejs22.x, minified, leaving the AWS SDK to the runtime", () => {
    for (const [area, { props }] of prod.areas) {
      expect(props.handler).toBe(areaHandler(area));
      expect(props.runtime).toBe("nodejs22.x");
      expect(props.nodejs?.esbuild?.external).toEqual(["@aws-sdk/*"]);
      expect(props.nodejs?.minify).toBe(true);
    }
    for (const { props } of prod.kinds.values()) {
      expect(props.runtime).toBe("nodejs22.x");
      expect(props.nodejs?.esbuild?.external).toEqual(["@aws-sdk/*"]);
    }
  });

  it("points at handler files that exist", () => {
    for (const handler of [...servedRoutes().map((route) => route.handler), ...Object.values(workers).map((w) => w.handler), ...[...prod.areas.keys()].map(areaHandler)]) {
      const { file } = handlerModule(handler);
      expect(fs.existsSync(path.join(root, `${file}.ts`)), `${file}.ts`).toBe(true);
    }
  });

  it("gives every function (areas and workers) its settings and secrets", () => {
    const functions = appFunctions(prod.api);
    expect(functions).toHaveLength(prod.areas.size + JOB_KINDS.length);
    for (const fn of functions) {
      expect(fn.Properties.Runtime).toBe("nodejs22.x");
      expect(fn.Properties.Architectures).toEqual(["arm64"]);
      const env = fn.Properties.Environment.Variables;
      expect(env).toMatchObject({
        STAGE: "test",
        INSTANCE_NAME: "test",
        INSTANCE_ENV: "production",
        MAIL_TRANSPORT: "ses",
        JWT_ISSUER: "sealwork:test",
        SST_Secret_value_JWT_PRIVATE_JWK: "__FETCH_FROM_SSM__",
        SST_Secret_value_SETUP_TOKEN: "__FETCH_FROM_SSM__",
        // No custom domain: the site's URL arrives through SST's site binding.
        SST_StaticSite_url_Site: "__FETCH_FROM_SSM__",
      });
      expect(env.APP_URL).toBeUndefined();
      for (const name of ["TABLE_NAME", "BUCKET_NAME"]) expect(env[name], name).toBeDefined();
      for (const kind of JOB_KINDS) {
        expect(env[queueUrlSetting(kind)], kind).toEqual({ "Fn::ImportValue": expect.stringContaining(prod.kinds.get(kind)!.queueId) });
      }
    }
  });

  it("gives every function its own role, policy and log retention", () => {
    const functions = appFunctions(prod.api);
    const roles = new Set(functions.map((fn) => fn.Properties.Role["Fn::GetAtt"][0] as string));
    expect(roles.size).toBe(functions.length);
    prod.api.resourceCountIs("Custom::LogRetention", functions.length);
  });

  it("has a grant for every area of the route table and for nothing else", () => {
    expect(Object.keys(AREA_GRANTS).sort()).toEqual([...routesByArea().keys()].sort());
    expect(Object.keys(WORKER_GRANTS).sort()).toEqual([...JOB_KINDS].sort());
  });

  it("gives each area's and each worker's function exactly its grant: its table actions, its bucket prefixes, its queues, mail only for the mail worker", () => {
    const principals = [
      ...[...prod.areas].map(([area, { logicalId }]) => ({ name: area, logicalId, grant: AREA_GRANTS[area]! })),
      ...[...prod.kinds].map(([kind, { logicalId }]) => ({ name: kind, logicalId, grant: WORKER_GRANTS[kind] })),
    ];
    for (const { name, logicalId, grant } of principals) {
      const granted = grantedBy(prod.api, logicalId);
      expect(granted.table, name).toEqual([...(grant.table ?? [])].map((a) => `dynamodb:${a}`).sort());
      expect(granted.tableResources, name).toEqual(grant.table?.length ? ["<table>", "<table>/index/*"] : []);
      const objects = (grant.objects ?? []).flatMap(({ actions, prefixes }) => actions.flatMap((a) => prefixes.map((p) => `s3:${a} <bucket>/${p}*`)));
      expect(granted.objects, name).toEqual([...new Set(objects)].sort());
      expect(granted.list, name).toEqual(grant.list === "bucket" ? ["<bucket>"] : (grant.list ?? []).map((p) => `<bucket> under ${p}*`).sort());
      // Queue ARNs are imports named after the queue's logical id.
      const queues = (kinds: JobKind[] = []) => kinds.map((kind) => expect.stringContaining(prod.kinds.get(kind)!.queueId));
      expect(granted.send, name).toEqual(expect.arrayContaining(queues(grant.send)));
      expect(granted.send, name).toHaveLength(grant.send?.length ?? 0);
      expect(granted.queueAttributes, name).toEqual(expect.arrayContaining(queues(grant.queueAttributes)));
      expect(granted.queueAttributes, name).toHaveLength(grant.queueAttributes?.length ?? 0);
      expect(granted.mail, name).toBe(grant.mail === true);
    }
  });

  it("lets no function scan the table or reach the bucket outside the files' prefixes (attachments, drive files, cards' files, staged uploads)", () => {
    const statements = resources(prod.api, "AWS::IAM::Policy").flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
    const actions = statements.flatMap((st) => ([] as string[]).concat(st.Action));
    expect(actions).not.toContain("dynamodb:Scan");
    expect(actions.filter((a) => a === "dynamodb:*" || a === "s3:*" || a === "*")).toEqual([]);
    for (const st of statements.filter((st) => ([] as string[]).concat(st.Action).some((a) => a.startsWith("s3:") && a !== "s3:ListBucket"))) {
      for (const on of ([] as unknown[]).concat(st.Resource).map(resolveJoin)) expect(on).toMatch(/\/(attachments|drive|cards|uploads)\/\*$/);
    }
    // Only the areas that own the routes: the users and keys areas never touch the bucket.
    for (const area of ["users", "keys"]) expect(grantedBy(prod.api, prod.areas.get(area)!.logicalId).objects).toEqual([]);
  });

  it("keeps the API's access logs (with client IPs) a month, not forever, and throttles the stage", () => {
    const { resource: group } = only(prod.api, "AWS::Logs::LogGroup");
    expect(JSON.stringify(group.Properties.LogGroupName)).toContain("/aws/vendedlogs/apis");
    expect(group.Properties.RetentionInDays).toBe(30);
    const { resource: stage } = only(prod.api, "AWS::ApiGatewayV2::Stage");
    expect(stage.Properties.AccessLogSettings.DestinationArn).toBeDefined();
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: DEFAULT_THROTTLE.rate, ThrottlingBurstLimit: DEFAULT_THROTTLE.burst });
    const { resource: tenantStage } = only(withDomain.api, "AWS::ApiGatewayV2::Stage");
    expect(tenantStage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 120 });
  });
});

describe("the Api stack's size", () => {
  // CloudFormation refuses a stack of more than 500 resources.
  const LIMIT = 500;
  let counts: { today: number; one: number; oneMoreRoute: number; oneMoreArea: number; projected: number };

  beforeAll(async () => {
    counts = {
      today: resourceCount(prod.api),
      one: resourceCount(await synthesiseApiWith(generatedTable(1, 1))),
      oneMoreRoute: resourceCount(await synthesiseApiWith(generatedTable(1, 2))),
      oneMoreArea: resourceCount(await synthesiseApiWith(generatedTable(2, 1))),
      // The product's horizon: 200 routes over 20 areas.
      projected: resourceCount(await synthesiseApiWith(generatedTable(20, 10))),
    };
  }, 120_000);

  it("grows by one resource per route and by a fixed few per area, not per route", () => {
    const perRoute = counts.oneMoreRoute - counts.one;
    const perArea = counts.oneMoreArea - counts.one - perRoute;
    const fixed = counts.one - perArea - perRoute;
    const model = (areas: number, routes: number) => fixed + perArea * areas + perRoute * routes;
    console.log(
      `Api stack resources: ${fixed} + ${perArea} per area + ${perRoute} per route; ` +
        `today ${counts.today} (${prod.areas.size} areas, ${servedRoutes().length} routes); 200 routes over 20 areas: ${counts.projected}`,
    );
    // Only the API Gateway route itself is per route; function, role, policy, log retention,
    // integration and permission are per area.
    expect(perRoute).toBe(1);
    expect(perArea).toBe(6);
    expect(counts.today).toBe(model(prod.areas.size, servedRoutes().length));
    expect(counts.projected).toBe(model(20, 200));
  });

  it("stays far below CloudFormation's limit with 200 routes over 20 areas", () => {
    expect(counts.projected).toBeLessThan(LIMIT * 0.75);
  });
});

describe("Web", () => {
  it("serves the SPA from a private bucket through CloudFront, pointed at the API", () => {
    const { resource } = only(prod.web, "AWS::CloudFront::Distribution");
    expect(resource.Properties).toMatchObject({
      DistributionConfig: {
        DefaultRootObject: "index.html",
        DefaultCacheBehavior: { ViewerProtocolPolicy: "redirect-to-https" },
        CustomErrorResponses: expect.arrayContaining([expect.objectContaining({ ErrorCode: 404, ResponsePagePath: "/index.html" })]),
      },
    });
    prod.web.hasResourceProperties("AWS::S3::Bucket", {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
    });
    const { resource: uploader } = only(prod.web, "Custom::S3Uploader");
    const replaced = JSON.stringify(uploader.Properties.replaceValues);
    expect(replaced).toContain("{{ VITE_API_URL }}");
    expect(replaced).toContain("Fn::ImportValue");
  });

  it("sends the security headers: a CSP without inline script naming only the API and the bucket, HSTS, no framing, no referrer", () => {
    const { logicalId, resource: policy } = only(prod.web, "AWS::CloudFront::ResponseHeadersPolicy");
    const config = policy.Properties.ResponseHeadersPolicyConfig;
    const security = config.SecurityHeadersConfig;
    // The CSP names the API's and the bucket's deploy-time values: resolve them to readable markers.
    const csp = resolveJoin(security.ContentSecurityPolicy.ContentSecurityPolicy);
    const directives = Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));
    expect(directives["default-src"]).toEqual(["'none'"]);
    expect(directives["script-src"]).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives["frame-ancestors"]).toEqual(["'none'"]);
    expect(directives["object-src"]).toEqual(["'none'"]);
    expect(directives["base-uri"]).toEqual(["'none'"]);
    expect(directives["img-src"]).toEqual(["'self'", "blob:", "data:"]);
    expect(directives["require-trusted-types-for"]).toEqual(["'script'"]);
    expect(directives["trusted-types"]).toEqual(["default"]);
    expect(directives["connect-src"]).toEqual(["'self'", expect.stringMatching(/^<import:.*Api.*>$/), expect.stringMatching(/^https:\/\/<import:.*Files.*>\.s3\.eu-central-2\.amazonaws\.com$/)]);
    expect(csp).toContain("upgrade-insecure-requests");
    expect(security.ContentSecurityPolicy.Override).toBe(true);
    expect(security.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true });
    expect(security.FrameOptions).toMatchObject({ FrameOption: "DENY", Override: true });
    expect(security.ReferrerPolicy).toMatchObject({ ReferrerPolicy: "no-referrer", Override: true });
    expect(security.ContentTypeOptions).toMatchObject({ Override: true });
    expect(config.CustomHeadersConfig.Items.map((h: { Header: string }) => h.Header).sort()).toEqual(["Cross-Origin-Opener-Policy", "Permissions-Policy"]);
    const { resource: distribution } = only(prod.web, "AWS::CloudFront::Distribution");
    expect(distribution.Properties.DistributionConfig.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: logicalId });
  });

  it("publishes the site URL for the functions' binding", () => {
    prod.web.hasResourceProperties("AWS::SSM::Parameter", {
      Name: "/sst/sealwork/test/StaticSite/Site/url",
    });
  });
});

describe("a tenant with its own domain", () => {
  it("serves the site on the domain and gives the functions APP_URL and MAIL_FROM directly", () => {
    only(withDomain.web, "AWS::CloudFront::Distribution", {
      Properties: { DistributionConfig: { Aliases: ["acme.example.com"] } },
    });
    for (const fn of appFunctions(withDomain.api)) {
      const env = fn.Properties.Environment.Variables;
      expect(env).toMatchObject({
        APP_URL: "https://acme.example.com",
        MAIL_FROM: "no-reply@acme.example.com",
        INSTANCE_TITLE: "Acme",
        INSTANCE_NAME: "own-domain",
      });
      expect(env.SST_StaticSite_url_Site).toBeUndefined();
      // Secure-code settings go to the SPA build only: no function knows or could hand them out.
      for (const name of BUILD_SETTING_NAMES) expect(env[name]).toBeUndefined();
    }
    expect(JSON.stringify(withDomain.api.toJSON())).not.toContain("acme-default-code-1");
  });

  it("passes the secure-code settings to the SPA build, checked at synth time", () => {
    expect(webBuildEnvironment({ DISABLE_SECURECODE: "true", DEFAULT_SECURECODE: "acme-default-code-1", INSTANCE_TITLE: "Acme" })).toEqual({
      DISABLE_SECURECODE: "true",
      DEFAULT_SECURECODE: "acme-default-code-1",
    });
    expect(webBuildEnvironment({})).toEqual({});
    expect(() => webBuildEnvironment({ DISABLE_SECURECODE: "true" })).toThrow(/DEFAULT_SECURECODE is required/);
  });

  it("admits only the site's origin to the API and to browser uploads", () => {
    only(withDomain.api, "AWS::ApiGatewayV2::Api", {
      Properties: { CorsConfiguration: { AllowOrigins: ["https://acme.example.com"] } },
    });
    const { resource: bucket } = only(withDomain.storage, "AWS::S3::Bucket");
    expect(bucket.Properties.CorsConfiguration.CorsRules[0].AllowedOrigins).toEqual(["https://acme.example.com"]);
  });
});
