import { timingSafeEqual } from "node:crypto";
import { setupBody, type Session } from "@sealwork/contracts";
import type * as z from "zod";
import { config } from "../config";
import { fail, valid } from "../errors";
import { User } from "../user/user";
import { instanceInfo } from "./info";
import "./errors";

/** The instance (tenant): its public settings and its one-time first-administrator setup. */
export namespace Instance {
  export const info = instanceInfo;

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
  export async function setup(body: z.input<typeof setupBody>): Promise<Session> {
    const input = valid(setupBody, body);
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
