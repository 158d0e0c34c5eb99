import { exportJWK, generateKeyPair } from "jose";
import { resetConfig } from "@sealwork/core";

/** Settings for unit tests that never reach AWS or the stand-ins. */
export async function unitEnv(): Promise<void> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  Object.assign(process.env, {
    TABLE_NAME: "unit",
    BUCKET_NAME: "unit",
    JOBS_QUEUE_URL: "http://127.0.0.1:9/000000000000/jobs",
    JWT_PRIVATE_JWK: JSON.stringify(await exportJWK(privateKey)),
    APP_URL: "http://localhost:3000",
    POWERTOOLS_LOG_LEVEL: "SILENT",
  });
  resetConfig();
}
