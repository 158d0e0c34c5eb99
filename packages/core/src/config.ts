import { plainText } from "@sealwork/contracts/fields";
import * as z from "zod";

/**
 * The kinds of job. Each has its own SQS queue (with a dead-letter queue) and worker, declared in
 * functions/routes.ts; JobMessage (queue.ts) has one message shape per kind.
 */
export const JOB_KINDS = ["mail", "purge-attachments", "pickup-sweep", "upload-sweep", "key-moved"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

type Snake<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${Snake<B>}` : S;
export type QueueUrlSetting<K extends JobKind = JobKind> = `${Uppercase<Snake<K>>}_QUEUE_URL`;

/** The setting that holds a kind's queue URL: "pickup-sweep" → PICKUP_SWEEP_QUEUE_URL. */
export function queueUrlSetting<K extends JobKind>(kind: K): QueueUrlSetting<K> {
  return `${kind.replaceAll("-", "_").toUpperCase()}_QUEUE_URL` as QueueUrlSetting<K>;
}

const queueUrls = Object.fromEntries(JOB_KINDS.map((kind) => [queueUrlSetting(kind), z.string().min(1)])) as Record<QueueUrlSetting, z.ZodString>;

/**
 * Every setting the server reads, parsed once. On AWS the stacks set these on each function;
 * locally packages/local sets them before loading a handler. A missing one fails loudly.
 */
const schema = z.object({
  STAGE: z.string().min(1).default("local"),
  AWS_REGION: z.string().min(1).default("eu-central-2"),
  TABLE_NAME: z.string().min(1),
  BUCKET_NAME: z.string().min(1),
  /** One queue URL per job kind (queueUrlSetting). */
  ...queueUrls,
  /** Set only locally, to reach the stand-ins. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  S3_ENDPOINT: z.url().optional(),
  SQS_ENDPOINT: z.url().optional(),
  /** The ES256 private key (a JWK as JSON) that signs api tokens. An SST secret on AWS. */
  JWT_PRIVATE_JWK: z.string().min(1),
  JWT_ISSUER: z.string().min(1).default("sealwork"),
  TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(12 * 3600),
  /** Where the SPA is served; links in emails point here and CORS admits it. */
  APP_URL: z.url(),
  MAIL_TRANSPORT: z.enum(["outbox", "ses"]).default("ses"),
  OUTBOX_DIR: z.string().optional(),
  MAIL_FROM: z.string().min(3).default("no-reply@localhost"),
  /** While the instance has no user, this token (from the one-time setup link) creates the first administrator. */
  SETUP_TOKEN: z.string().optional(),
  /** Shown in the app and put into mail subjects: one line of plain text. */
  INSTANCE_TITLE: plainText(z.string().min(1).max(80)).default("Sealwork"),
  INSTANCE_NAME: z.string().min(1).default("local"),
  INSTANCE_ENV: z.enum(["production", "staging"]).default("production"),
  IDLE_TIMEOUT: z.coerce.number().int().min(0).default(0),
  INDEX_CHARS: z.coerce.number().int().min(3).max(16).default(5),
  DISABLE_FEATURES: z.string().default(""),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(50),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().positive().default(60),
  /** Verification codes (registration, forgotten password) one account may be sent in a sliding hour. */
  VERIFICATION_MAX_CODES: z.coerce.number().int().positive().default(5),
  /** Pickups (each one an email to an outside address) one member may create in a sliding hour. */
  PICKUP_MAX_PER_HOUR: z.coerce.number().int().positive().default(20),
  /** Anonymous backup-store saves from one client address in a sliding hour. */
  BACKUP_MAX_SAVES_PER_HOUR: z.coerce.number().int().positive().default(100),
  /**
   * Which requests leave a log line: "errors" (default) logs 4xx and 5xx answers and requests
   * slower than LOG_SLOW_MS; "all" logs every request (one line per poll: noisy).
   */
  LOG_REQUESTS: z.enum(["errors", "all"]).default("errors"),
  LOG_SLOW_MS: z.coerce.number().int().positive().default(1000),
});

export type Config = z.infer<typeof schema>;

let parsed: Config | undefined;

export function config(): Config {
  if (parsed) return parsed;
  const result = schema.safeParse(process.env);
  if (!result.success) {
    const names = result.error.issues.map((issue) => issue.path.join(".")).join(", ");
    throw new Error(`Invalid or missing settings: ${names}`);
  }
  parsed = result.data;
  return parsed;
}

/** Only for the local runtime and tests, which set the environment after import. */
export function resetConfig(): void {
  parsed = undefined;
}
