import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join, resolve } from "node:path";
import { queueUrlSetting, type JobKind } from "@sealwork/core/config";
import { localCredentials } from "@sealwork/core/db/client";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { AREA_ENTRIES, staleAreaEntries } from "../../../functions/area-entries";
import { schedules, workers, type JobWorker } from "../../../functions/routes";
import { createApiAdapter } from "./api-adapter";
import { ensureQueues, ensureTable } from "./bootstrap";
import { startDelivery } from "./deliver";
import { startDynamo } from "./dynamodb";
import { DEFAULT_HOST, appOrigins, isLocalRequest, isLoopbackAddress } from "./exposure";
import { serveOutbox } from "./outbox";
import { ROOT, loadHandler } from "./paths";
import { freePort } from "./ports";
import { startS3 } from "./s3";
import { enforceGrants, runAs } from "./iam";
import { localSecrets } from "./secrets";
import { SqsStandIn } from "./sqs";
import { serveStatic } from "./static";
import { WORKER_GRANTS } from "../../../stacks/permissions";
import { siteHeaders } from "../../../stacks/site-headers";

export interface RuntimeOptions {
  port: number;
  /** The interface the app's port listens on: loopback unless told otherwise (HOST). */
  host?: string;
  dataDir: string;
  /** Where the built SPA is; defaults to web/dist. */
  webDir?: string;
  adminEmail?: string;
  adminPassword?: string;
  adminName?: string;
  log?: (line: string) => void;
  /**
   * Called when the runtime cannot go on (its data folder was removed): the caller stops it and
   * exits. Without it, the runtime stops itself.
   */
  onFatal?: (error: Error) => void;
}

export interface Runtime {
  url: string;
  setupUrl?: string;
  /** The settings the handlers run with (endpoints of the stand-ins, table, bucket, queue). */
  env: Record<string, string>;
  stop: () => Promise<void>;
}

const TABLE_NAME = "sealwork";
const BUCKET_NAME = "sealwork-files";
const REGION = "eu-central-2";

/**
 * The whole backend on one machine: DynamoDB Local, s3rver, the SQS stand-in with its worker
 * delivery, the email outbox, the API from the route table and the built SPA on one port.
 */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const log = options.log ?? ((line: string) => console.log(line));
  // The API is served through the area entries, as on AWS: they must match the route table.
  const stale = staleAreaEntries();
  if (stale.length) throw new Error(`${AREA_ENTRIES}/ is out of step with functions/routes.ts (${stale.join(", ")}): run \`npm run areas\``);
  const dataDir = resolve(options.dataDir);
  // Everything in it is private: the table, the files, the outbox's codes and links, the secrets.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((error: unknown) => console.error("[runtime] stopping:", error));
    stops.length = 0;
  };

  try {
    const appUrl = `http://${urlHost(options.host)}:${options.port}`;
    const appOrigin = new URL(process.env.APP_URL ?? appUrl).origin;
    const [dynamoPort, s3Port, sqsPort] = [await freePort(), await freePort(), await freePort()];
    const dynamo = await startDynamo(dataDir, dynamoPort);
    stops.push(dynamo.stop);
    const s3 = await startS3({ dataDir, port: s3Port, bucket: BUCKET_NAME, region: REGION, credentials: localCredentials, origins: appOrigins(appOrigin, options.port) });
    stops.push(s3.stop);

    const sqs = new SqsStandIn(join(dataDir, "sqs"), `http://127.0.0.1:${sqsPort}`);
    const sqsServer = createServer((req, res) => void sqs.handle(req, res));
    await listen(sqsServer, sqsPort, "127.0.0.1");
    stops.push(async () => (await close(sqsServer), sqs.flush()));
    const queueUrls = ensureQueues(sqs);

    const secrets = await localSecrets(dataDir);
    const env: Record<string, string> = {
      STAGE: "local",
      AWS_REGION: REGION,
      TABLE_NAME,
      BUCKET_NAME,
      ...Object.fromEntries(Object.entries(queueUrls).map(([kind, url]) => [queueUrlSetting(kind as JobKind), url])),
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamoPort}`,
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      SQS_ENDPOINT: `http://127.0.0.1:${sqsPort}`,
      JWT_PRIVATE_JWK: secrets.jwtPrivateJwk,
      SETUP_TOKEN: secrets.setupToken,
      APP_URL: process.env.APP_URL ?? appUrl,
      MAIL_TRANSPORT: "outbox",
      OUTBOX_DIR: join(dataDir, "outbox"),
      AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
    };
    Object.assign(process.env, env);
    // Loaded only now: the core reads its settings from the environment set just above.
    const core = await import("@sealwork/core");
    core.resetConfig();
    const { dynamo: dynamoClient } = await import("@sealwork/core/db/client");
    await ensureTable(dynamoClient(), TABLE_NAME);
    // The functions' IAM policies (stacks/permissions.ts), checked on every SDK call of a handler.
    const { s3: s3Client } = await import("@sealwork/core/storage");
    const { sqs: sqsClient } = await import("@sealwork/core/queue");
    enforceGrants(dynamoClient());
    enforceGrants(s3Client());
    enforceGrants(sqsClient(), (url) => Object.entries(queueUrls).find(([, queueUrl]) => queueUrl === url)?.[0]);

    // Each kind's queue to its worker, as Lambda's SQS event source does on AWS.
    for (const [kind, worker] of Object.entries(workers) as Array<[JobKind, JobWorker]>) {
      const handler = await loadHandler<(e: SQSEvent) => Promise<SQSBatchResponse>>(worker.handler);
      const principal = { name: `the ${kind} worker`, grant: WORKER_GRANTS[kind] };
      const asWorker = (event: SQSEvent) => runAs(principal, () => handler(event));
      stops.push(startDelivery(sqs, kind, asWorker, { batchSize: worker.batchSize, idleMs: 250 }).stop);
    }
    // The scheduled jobs, as EventBridge sends them on AWS: once at start, then at their rate.
    for (const schedule of schedules) {
      const send = () => core.Queue.send(schedule.job).catch((error: unknown) => console.error(`[runtime] ${schedule.name} failed:`, error));
      void send();
      const timer = setInterval(() => void send(), schedule.everyMinutes * 60_000);
      timer.unref();
      stops.push(async () => clearInterval(timer));
    }

    let setupUrl: string | undefined;
    if ((await core.User.count()) === 0) {
      if (options.adminEmail && options.adminPassword) {
        await core.Instance.createFirstAdmin({ name: options.adminName ?? "Administrator", email: options.adminEmail, password: options.adminPassword });
        log(`[runtime] created the first administrator ${options.adminEmail}`);
      } else {
        setupUrl = `${appUrl}/setup#${secrets.setupToken}`;
        log(`[runtime] This instance has no administrator yet. Open this one-time link to create one:\n\n    ${setupUrl}\n`);
      }
    }

    const serveApi = createApiAdapter({ appOrigin });
    const webDir = resolve(options.webDir ?? join(ROOT, "web/dist"));
    // The API is the site's own origin here ('self'); the bucket is the S3 endpoint.
    const spaHeaders = siteHeaders({ bucket: new URL(env.S3_ENDPOINT!).origin }, { https: false });
    const outboxDir = join(dataDir, "outbox");
    mkdirSync(outboxDir, { recursive: true, mode: 0o700 });
    const server = createServer((req, res) => void handle(req, res));
    async function handle(req: IncomingMessage, res: ServerResponse) {
      try {
        const url = new URL(req.url ?? "/", "http://localhost");
        if (url.pathname === "/api" || url.pathname.startsWith("/api/")) return await serveApi(req, res, url);
        if (url.pathname === "/dev/outbox" || url.pathname === "/dev/outbox.json") {
          // Verification codes and pickup links: for this machine only, whatever HOST says.
          if (!isLocalRequest(req)) return void res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ code: "not_found", message: "Requested content not found." }));
          return await serveOutbox(outboxDir, res, url.pathname.endsWith(".json"));
        }
        if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405).end();
        serveStatic(webDir, url.pathname, res, spaHeaders);
      } catch (error) {
        console.error("[runtime] request failed:", error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: "internal", message: "Something went wrong on our side. Please try again later." }));
      }
    }
    await listen(server, options.port, options.host ?? DEFAULT_HOST);
    stops.push(() => close(server));

    // A runtime whose data folder was removed would go on half-working (the table's open file,
    // queues and files that cannot be saved): stop everything, DynamoDB Local included. By inode,
    // since a stand-in writing a file may already have made an empty folder of the same name.
    const folder = statSync(dataDir).ino;
    const watch = setInterval(() => {
      if (existsSync(dataDir) && statSync(dataDir).ino === folder) return;
      clearInterval(watch);
      const error = new Error(`the data folder ${dataDir} was removed`);
      if (options.onFatal) options.onFatal(error);
      else void stop();
    }, 1000);
    watch.unref();
    stops.push(async () => clearInterval(watch));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : options.port;
    return { url: `http://${urlHost(options.host)}:${port}`, setupUrl, env, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** How a browser on this machine reaches the app: localhost, unless HOST names one interface. */
function urlHost(host: string | undefined): string {
  if (!host || host === "0.0.0.0" || host === "::" || isLoopbackAddress(host) || host === "localhost") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

function listen(server: Server, port: number, host?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
