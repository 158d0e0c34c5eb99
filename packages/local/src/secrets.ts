import { chmodSync, existsSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { exportJWK, generateKeyPair } from "jose";
import { writePrivateFile } from "./exposure";

export interface LocalSecrets {
  jwtPrivateJwk: string;
  setupToken: string;
}

/** The local instance's token-signing key and setup token, made once and kept with the data. */
export async function localSecrets(dataDir: string): Promise<LocalSecrets> {
  const file = join(dataDir, "secrets.json");
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    return JSON.parse(readFileSync(file, "utf8")) as LocalSecrets;
  }
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: `local-${randomBytes(4).toString("hex")}` };
  const secrets: LocalSecrets = { jwtPrivateJwk: JSON.stringify(jwk), setupToken: randomBytes(24).toString("base64url") };
  writePrivateFile(file, JSON.stringify(secrets, null, 2));
  return secrets;
}
