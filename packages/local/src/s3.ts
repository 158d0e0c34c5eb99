import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import S3rver from "s3rver";
import { createS3Gate } from "./s3-gate";

/**
 * Browsers upload to presigned URLs from the SPA's origin, so the bucket needs CORS: for the app's
 * origins only, with the methods and the exposed ETag of the Storage stack's rule.
 */
function corsRule(origins: string[]): string {
  return `<CORSConfiguration>
  <CORSRule>
${origins.map((origin) => `    <AllowedOrigin>${origin}</AllowedOrigin>`).join("\n")}
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;
}

export interface LocalBucketOptions {
  dataDir: string;
  port: number;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The origins the SPA is served from (CORS). */
  origins: string[];
}

/**
 * s3rver, storing under the data folder, served in this process behind S3's signature checks
 * (s3-gate.ts) on 127.0.0.1: s3rver itself listens on no port, so the gate is the only way in.
 */
export async function startS3(options: LocalBucketOptions): Promise<{ stop: () => Promise<void> }> {
  const directory = join(options.dataDir, "s3");
  mkdirSync(directory, { recursive: true });
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: options.bucket, configs: [corsRule(options.origins)] }] });
  await s3rver.configureBuckets();
  const gate = createS3Gate({ region: options.region, credentials: options.credentials, origins: options.origins });
  const server = createServer(gate(s3rver.callback()));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
