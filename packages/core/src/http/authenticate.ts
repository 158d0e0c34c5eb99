import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { kindOf, type Actor } from "../access/actor";
import { fail } from "../errors";
import { verifyToken } from "../tokens";
import { isLivePickup } from "../pickup/live";
import { getUser } from "../user/read";

/**
 * The actor behind a request's bearer token. No token is an anonymous actor; a token that is
 * forged, expired, older than the user's last password change, or whose account an administrator
 * has disabled is refused with 401.
 */
export async function authenticate(event: APIGatewayProxyEventV2): Promise<Actor> {
  const ip = event.requestContext.http.sourceIp || "unknown";
  const header = event.headers.authorization ?? event.headers.Authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!header) return { kind: "anonymous", ip };
  if (!match?.[1]) fail("unauthenticated");
  const claims = await verifyToken(match[1]);
  if (!claims) fail("unauthenticated");
  if (claims.kind === "guest") {
    const pickup = Number(claims.pickup);
    if (!Number.isSafeInteger(pickup) || pickup < 1) fail("unauthenticated");
    return { kind: "guest", ip, uid: 0, pickup, live: await isLivePickup(pickup) };
  }
  const user = await getUser(claims.uid);
  if (!user || user.disabled || user.tokenVersion !== claims.tokenVersion) fail("unauthenticated");
  return { kind: kindOf(user), ip, uid: user.id, user };
}
