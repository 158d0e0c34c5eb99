import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { kindOf, type Caller } from "../caller";
import { fail } from "../errors";
import { verifyToken } from "../tokens";
import { User } from "../user";

/**
 * The caller behind a request's bearer token. No token is an anonymous caller; a token that is
 * forged, expired, or older than the user's last password change is refused with 401.
 */
export async function authenticate(event: APIGatewayProxyEventV2): Promise<Caller> {
  const ip = event.requestContext.http.sourceIp || "unknown";
  const header = event.headers.authorization ?? event.headers.Authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!header) return { kind: "anonymous", ip };
  if (!match?.[1]) fail("unauthenticated");
  const claims = await verifyToken(match[1]);
  if (!claims) fail("unauthenticated");
  if (claims.kind === "guest") return { kind: "guest", ip, uid: 0, pickup: claims.pickup };
  const user = await User.get(claims.uid);
  if (!user || user.tokenVersion !== claims.tokenVersion) fail("unauthenticated");
  return { kind: kindOf(user), ip, uid: user.id, user };
}
