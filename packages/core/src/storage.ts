import { S3Client } from "@aws-sdk/client-s3";
import { config } from "./config";
import { localCredentials } from "./db/client";

let client: S3Client | undefined;

export function s3(): S3Client {
  const { AWS_REGION, S3_ENDPOINT } = config();
  client ??= new S3Client({
    region: AWS_REGION,
    ...(S3_ENDPOINT ? { endpoint: S3_ENDPOINT, forcePathStyle: true, credentials: localCredentials } : {}),
  });
  return client;
}
