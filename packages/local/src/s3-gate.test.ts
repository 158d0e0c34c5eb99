import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, PutObjectCommand, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { Hash } from "@smithy/hash-node";
import { SignatureV4 } from "@smithy/signature-v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./ports";
import { startS3 } from "./s3";

/**
 * The local bucket's signature checks through the AWS SDK (the system tests cover the app's own
 * presigned URLs): what S3 answers for clock skew, a wrong region, retired signature versions and
 * two ways of signing at once, and that well-signed requests of every kind the app makes go through.
 */
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
const Bucket = "gate-test";
let endpoint: string;
let dir: string;
let stop: () => Promise<void>;

const client = (config: Partial<S3ClientConfig> = {}) =>
  new S3Client({ region: "eu-central-2", endpoint, forcePathStyle: true, credentials, maxAttempts: 1, requestChecksumCalculation: "WHEN_REQUIRED", ...config });

/** A presigned GET as the S3 presigner makes it (UNSIGNED-PAYLOAD, host signed). */
async function presignedGet(key: string, { region = "eu-central-2", expiresIn = 60, signingDate = new Date() } = {}): Promise<string> {
  const url = new URL(`${endpoint}/${Bucket}/${key}`);
  const signer = new SignatureV4({ service: "s3", region, credentials, sha256: Hash.bind(null, "sha256"), uriEscapePath: false });
  const request = { method: "GET", protocol: "http:", hostname: url.hostname, port: Number(url.port), path: url.pathname, query: {}, headers: { host: url.host, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" } };
  const signed = await signer.presign(request, { expiresIn, signingDate });
  return `${endpoint}${signed.path}?${new URLSearchParams(signed.query as Record<string, string>).toString()}`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "s3-gate-"));
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}`;
  ({ stop } = await startS3({ dataDir: dir, port, bucket: Bucket, region: "eu-central-2", credentials, origins: ["http://localhost:3000"] }));
});

afterAll(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the local bucket's signature checks", () => {
  it("let well-signed requests through, by header and by presigned URL", async () => {
    await client().send(new PutObjectCommand({ Bucket, Key: "a/1", Body: "hello" }));
    const listed = await client().send(new ListObjectsV2Command({ Bucket, Prefix: "a/" }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(["a/1"]);
    expect(await (await fetch(await presignedGet("a/1"))).text()).toBe("hello");
  });

  it("refuse a presigned URL after X-Amz-Expires, and one signed for the future", async () => {
    const expired = await fetch(await presignedGet("a/1", { expiresIn: 60, signingDate: new Date(Date.now() - 10 * 60_000) }));
    expect(expired.status).toBe(403);
    expect(await expired.text()).toMatch(/<Code>AccessDenied<\/Code><Message>Request has expired/);
    expect((await fetch(await presignedGet("a/1", { expiresIn: 60, signingDate: new Date(Date.now() - 30_000) }))).status).toBe(200);
    expect((await fetch(await presignedGet("a/1", { signingDate: new Date(Date.now() + 60 * 60_000) }))).status).toBe(403);
  });

  it("refuse a header-signed request more than 15 minutes off the clock", async () => {
    await expect(client({ systemClockOffset: -20 * 60_000 }).send(new ListObjectsV2Command({ Bucket }))).rejects.toMatchObject({ name: "RequestTimeTooSkewed" });
  });

  it("refuse a signature for another region", async () => {
    await expect(client({ region: "us-east-1" }).send(new ListObjectsV2Command({ Bucket }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    expect((await fetch(await presignedGet("a/1", { region: "us-east-1" }))).status).toBe(400);
  });

  it("refuse Signature Version 2 and two signatures at once", async () => {
    expect((await fetch(`${endpoint}/${Bucket}/a/1?AWSAccessKeyId=S3RVER&Expires=9999999999&Signature=abc`)).status).toBe(400);
    expect((await fetch(`${endpoint}/${Bucket}/a/1`, { headers: { authorization: "AWS S3RVER:abc" } })).status).toBe(400);
    expect((await fetch(await presignedGet("a/1"), { headers: { authorization: "AWS4-HMAC-SHA256 Credential=x, SignedHeaders=host, Signature=y" } })).status).toBe(400);
  });

  it("answer a CORS preflight without credentials, for the app's origin only", async () => {
    const preflight = (origin: string) =>
      fetch(`${endpoint}/${Bucket}/a/1`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "PUT" } });
    // s3rver answers an admitted preflight with "*" where S3 names the origin; either admits it.
    expect((await preflight("http://localhost:3000")).headers.get("access-control-allow-origin")).toMatch(/^(\*|http:\/\/localhost:3000)$/);
    expect((await preflight("https://evil.example")).headers.get("access-control-allow-origin")).toBeNull();
    // The gate's own refusals carry CORS headers, so the SPA can read their status.
    const refused = await fetch(`${endpoint}/${Bucket}/a/1`, { headers: { origin: "http://localhost:3000" } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
  });
});
