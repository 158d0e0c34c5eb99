import { mkdirSync } from "node:fs";
import { join } from "node:path";
import S3rver from "s3rver";

/** Browsers upload to presigned URLs from the SPA's origin, so the bucket needs CORS. */
const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

export async function startS3(dataDir: string, port: number, bucket: string): Promise<{ stop: () => Promise<void> }> {
  const directory = join(dataDir, "s3");
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    port,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [CORS] }],
  });
  await server.run();
  return { stop: () => server.close() };
}
