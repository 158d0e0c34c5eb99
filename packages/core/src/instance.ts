import { timingSafeEqual } from "node:crypto";
import type { InstanceInfo, Session } from "@sealwork/contracts";
import { config } from "./config";
import { fail } from "./errors";
import { User } from "./user";

/** The instance (tenant): its public settings and its one-time first-administrator setup. */
export namespace Instance {
  export async function info(): Promise<InstanceInfo> {
    const c = config();
    const disabled = c.DISABLE_FEATURES.split(",").map((s) => s.trim()).filter(Boolean);
    return {
      title: c.INSTANCE_TITLE,
      name: c.INSTANCE_NAME,
      inEnv: c.INSTANCE_ENV,
      idleTimeout: c.IDLE_TIMEOUT,
      indexChars: c.INDEX_CHARS,
      disableSecurecode: c.DISABLE_SECURECODE,
      featureOff: { convo: disabled.includes("convo"), drive: disabled.includes("drive"), pages: disabled.includes("pages") },
      disableFeatures: disabled,
      needsSetup: (await User.count()) === 0,
    };
  }

  export interface FirstAdmin {
    name: string;
    email: string;
    password: string;
  }

  /** Creates the instance and super administrator; only ever succeeds once. */
  export async function createFirstAdmin(input: FirstAdmin) {
    return User.create({ ...input, admin: true, superAdmin: true }, { first: true });
  }

  /** The setup link's form: the token must match, and the instance must still be empty. */
  export async function setup(input: FirstAdmin & { token: string }): Promise<Session> {
    const expected = config().SETUP_TOKEN;
    if (!expected || !sameText(input.token, expected)) fail("setup_token_invalid");
    if ((await User.count()) > 0) fail("setup_closed");
    return User.session(await createFirstAdmin(input));
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
