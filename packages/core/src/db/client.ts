import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { config } from "../config";

let client: DynamoDBClient | undefined;

export function dynamo(): DynamoDBClient {
  if (client) return client;
  const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
  client = new DynamoDBClient({
    region: AWS_REGION,
    ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT, credentials: localCredentials } : {}),
  });
  return client;
}

/** s3rver accepts only its default key pair; DynamoDB Local and the SQS stand-in accept any. */
export const localCredentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
