import type { InstanceInfo } from "@sealwork/contracts";
import { config } from "../config";
import { countUsers } from "../user/read";

/** The instance's public settings (GET /api/instance, and the key state of GET /api/keypairs). */
export async function instanceInfo(): Promise<InstanceInfo> {
  const c = config();
  const disabled = c.DISABLE_FEATURES.split(",").map((s) => s.trim()).filter(Boolean);
  return {
    title: c.INSTANCE_TITLE,
    name: c.INSTANCE_NAME,
    inEnv: c.INSTANCE_ENV,
    idleTimeout: c.IDLE_TIMEOUT,
    indexChars: c.INDEX_CHARS,
    featureOff: { convo: disabled.includes("convo"), drive: disabled.includes("drive"), pages: disabled.includes("pages") },
    disableFeatures: disabled,
    needsSetup: (await countUsers()) === 0,
  };
}
