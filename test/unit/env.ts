import { exportJWK, generateKeyPair } from "jose";
import { JOB_KINDS, queueUrlSetting, resetConfig } from "@sealwork/core";

/** Settings for unit tests that never reach AWS or the stand-ins. */
export async function unitEnv(): Promise<void> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  Object.assign(process.env, {
    TABLE_NAME: "unit",
    BUCKET_NAME: "unit",
    ...Object.fromEntries(JOB_KINDS.map((kind) => [queueUrlSetting(kind), `http://127.0.0.1:9/000000000000/${kind}`])),
    JWT_PRIVATE_JWK: JSON.stringify(await exportJWK(privateKey)),
    APP_URL: "http://localhost:3000",
    POWERTOOLS_LOG_LEVEL: "SILENT",
  });
  resetConfig();
}
