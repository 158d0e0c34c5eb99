import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { BlockPublicAccess, BucketEncryption } from "aws-cdk-lib/aws-s3";
import { Bucket, Table, type StackContext } from "sst/constructs";
import { TABLE, keyAttributes } from "../packages/core/src/db/table";
import { STAGED_UPLOADS } from "../packages/core/src/storage";

/**
 * Stages that hold nobody's data: "local", and throwaway stages named "dev-…" or "pr-…".
 * Every other stage is a tenant (production or its staging copy) and keeps its data when the
 * stack or the app is removed.
 */
export function isEphemeralStage(stage: string): boolean {
  return stage === "local" || stage.startsWith("dev-") || stage.startsWith("pr-");
}

function removalPolicyFor(stage: string): RemovalPolicy {
  return isEphemeralStage(stage) ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
}

/**
 * Per-tenant settings read at synth time. `sst deploy --stage <tenant>` loads `.env.<tenant>`
 * into the environment before the stacks run, and CI may set them as plain variables.
 */
export interface TenantSettings {
  /** Custom domain of the app, e.g. "acme.sealwork.example"; without it CloudFront's own domain is used. */
  domain?: string;
  /** Route 53 hosted zone holding `domain` (defaults to `domain` itself). */
  hostedZone?: string;
  /** The app's URL when known at synth time (custom domain), else undefined. */
  siteUrl?: string;
  /** The HTTP API stage's throttle: steady requests per second and burst. */
  throttle: { rate: number; burst: number };
  /** Where the alarms (dead letters) are mailed, if anywhere. */
  alertEmail?: string;
}

/** The stage's throttle unless API_THROTTLE_RATE / API_THROTTLE_BURST say otherwise. */
export const DEFAULT_THROTTLE = { rate: 200, burst: 400 };

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${name} must be a positive whole number, not "${value}"`);
  return parsed;
}

export function tenantSettings(env: NodeJS.ProcessEnv = process.env): TenantSettings {
  const domain = env.SITE_DOMAIN?.trim() || undefined;
  return {
    domain,
    hostedZone: env.SITE_HOSTED_ZONE?.trim() || undefined,
    siteUrl: domain ? `https://${domain}` : undefined,
    throttle: {
      rate: positiveInteger("API_THROTTLE_RATE", env.API_THROTTLE_RATE, DEFAULT_THROTTLE.rate),
      burst: positiveInteger("API_THROTTLE_BURST", env.API_THROTTLE_BURST, DEFAULT_THROTTLE.burst),
    },
    alertEmail: env.ALERT_EMAIL?.trim() || undefined,
  };
}

/**
 * The one table (shape derived from TABLE, so index and attribute names cannot drift from the
 * entities and the local runtime) and the private bucket for encrypted file chunks.
 */
export function Storage({ stack, app }: StackContext) {
  const removalPolicy = removalPolicyFor(app.stage);
  const retain = removalPolicy === RemovalPolicy.RETAIN;

  const fields: Record<string, "string"> = {};
  for (const name of keyAttributes()) fields[name] = "string";

  const globalIndexes: Record<string, { partitionKey: string; sortKey: string }> = {};
  for (const [name, index] of Object.entries(TABLE.indexes)) {
    globalIndexes[name] = { partitionKey: index.partitionKey, sortKey: index.sortKey };
  }

  const table = new Table(stack, "Table", {
    fields,
    primaryIndex: { partitionKey: TABLE.partitionKey, sortKey: TABLE.sortKey },
    globalIndexes,
    timeToLiveAttribute: TABLE.ttlAttribute,
    cdk: {
      table: {
        // SST passes the deprecated `pointInTimeRecovery`; CDK rejects both being set.
        pointInTimeRecovery: undefined,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: retain,
        removalPolicy,
      },
    },
  });

  const site = tenantSettings();
  const bucket = new Bucket(stack, "Files", {
    // BLOCK_ALL and bucket-owner-enforced object ownership (no ACLs at all).
    blockPublicACLs: true,
    // Browsers upload encrypted chunks straight to S3 with presigned URLs. Without a custom
    // domain the site's CloudFront URL is unknown at synth time, so any origin may use a
    // presigned URL (the signature, not the origin, is what authorises the request).
    cors: [
      {
        allowedMethods: ["PUT", "GET", "HEAD"],
        allowedOrigins: [site.siteUrl ?? "*"],
        allowedHeaders: ["*"],
        // Multipart uploads need each part's ETag to complete the upload.
        exposedHeaders: ["ETag"],
        maxAge: "1 hour",
      },
    ],
    cdk: {
      bucket: {
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        lifecycleRules: [
          { id: "abort-incomplete-multipart-uploads", abortIncompleteMultipartUploadAfter: Duration.days(1) },
          // Single-part uploads land here and are copied to their file's key on completion (and
          // deleted); what is left (never completed, or PUT again after) goes after a day.
          { id: "expire-staged-uploads", prefix: STAGED_UPLOADS, expiration: Duration.days(1) },
        ],
        removalPolicy,
        autoDeleteObjects: !retain,
      },
    },
  });

  stack.addOutputs({ TableName: table.tableName, BucketName: bucket.bucketName });

  return { table, bucket };
}
