import { resetConfig } from "../config";

const BOUND_PREFIX = "SST_Secret_value_";
let loaded = false;

const SITE_BINDING = "SST_StaticSite_url_Site";

/**
 * On AWS, SST binds secrets as SST_Secret_value_<NAME> and sst/node/config fetches their values
 * at import; a tenant without a custom domain learns the site's URL (APP_URL) the same way, from
 * the Web stack's binding. Copy them into the plain variables that config() reads, once per cold
 * start. Locally nothing is bound and this does nothing.
 */
export async function loadBoundSecrets(): Promise<void> {
  if (loaded) return;
  loaded = true;
  const names = Object.keys(process.env)
    .filter((key) => key.startsWith(BOUND_PREFIX))
    .map((key) => key.slice(BOUND_PREFIX.length))
    .filter((name) => !process.env[name]);
  if (names.length > 0) {
    const { Config } = (await import("sst/node/config")) as unknown as { Config: Record<string, string> };
    for (const name of names) process.env[name] = Config[name];
  }
  if (!process.env.APP_URL && process.env[SITE_BINDING]) {
    const { StaticSite } = (await import("sst/node/site")) as unknown as { StaticSite: Record<string, { url: string }> };
    if (StaticSite.Site) process.env.APP_URL = StaticSite.Site.url;
  }
  resetConfig();
}
