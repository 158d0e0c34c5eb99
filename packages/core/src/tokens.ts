import { JwtVerifier } from "aws-jwt-verify";
import { SignJWT, importJWK, type JWK } from "jose";
import { config } from "./config";

/**
 * api tokens: short-lived ES256 JWTs. Signed with the instance key (an SST secret on AWS, a
 * generated key locally); verified with aws-jwt-verify against the public half, cached as JWKS.
 */
const AUDIENCE = "sealwork-api";

export type TokenClaims =
  | { kind: "user"; uid: number; tokenVersion: number }
  | { kind: "guest"; uid: 0; pickup: string };

function privateJwk(): JWK & { kid: string } {
  const jwk = JSON.parse(config().JWT_PRIVATE_JWK) as JWK;
  return { ...jwk, kid: jwk.kid ?? "sealwork-1", alg: "ES256", use: "sig" };
}

export async function issueToken(claims: TokenClaims): Promise<string> {
  const jwk = privateJwk();
  const key = await importJWK(jwk, "ES256");
  const payload = claims.kind === "user" ? { kind: "user", tv: claims.tokenVersion } : { kind: "guest", pickup: claims.pickup };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "ES256", kid: jwk.kid, typ: "JWT" })
    .setSubject(String(claims.uid))
    .setIssuer(config().JWT_ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${config().TOKEN_TTL_SECONDS}s`)
    .sign(key);
}

let verifier: ReturnType<typeof createVerifier> | undefined;

function createVerifier() {
  const { d: _private, ...publicJwk } = privateJwk();
  const created = JwtVerifier.create({ issuer: config().JWT_ISSUER, audience: AUDIENCE, jwksUri: "https://unused.invalid/jwks.json" });
  created.cacheJwks({ keys: [{ ...publicJwk, kty: "EC", alg: "ES256", use: "sig" }] } as never);
  return created;
}

/** The claims of a valid token, or undefined for anything forged, expired or malformed. */
export async function verifyToken(token: string): Promise<TokenClaims | undefined> {
  verifier ??= createVerifier();
  try {
    const payload = (await verifier.verify(token)) as Record<string, unknown>;
    const uid = Number(payload.sub);
    if (payload.kind === "user" && Number.isSafeInteger(uid) && uid > 0 && typeof payload.tv === "number") {
      return { kind: "user", uid, tokenVersion: payload.tv };
    }
    if (payload.kind === "guest" && uid === 0 && typeof payload.pickup === "string") {
      return { kind: "guest", uid: 0, pickup: payload.pickup };
    }
    return undefined;
  } catch {
    // Any verification failure is the same answer to the actor: not signed in.
    return undefined;
  }
}
