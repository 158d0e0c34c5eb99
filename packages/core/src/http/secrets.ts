import { resetConfig } from "../config";

const BOUND_PREFIX = "SST_Secret_value_";
let loaded = false;

/**
 * On AWS, SST binds secrets as SST_Secret_value_<NAME> and sst/node/config fetches their values
 * at import. Copy them into the plain variables that config() reads, once per cold start.
 */
export async function loadBoundSecrets(): Promise<void> {
  if (loaded) return;
  loaded = true;
  const names = Object.keys(process.env)
    .filter((key) => key.startsWith(BOUND_PREFIX))
    .map((key) => key.slice(BOUND_PREFIX.length))
    .filter((name) => !process.env[name]);
  if (names.length === 0) return;
  const { Config } = (await import("sst/node/config")) as unknown as { Config: Record<string, string> };
  for (const name of names) process.env[name] = Config[name];
  resetConfig();
}
