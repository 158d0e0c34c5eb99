import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { IncomingMessage, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { Hash } from "@smithy/hash-node";
import { SignatureV4 } from "@smithy/signature-v4";

/**
 * S3's request authentication in front of s3rver, which checks no signature at all: it serves
 * anonymous requests, and a presigned URL works for any key and any method. Every request except
 * a CORS preflight must carry a valid AWS Signature Version 4, in the query (a presigned URL) or in
 * the Authorization header (the SDK's own calls), as S3 requires:
 *
 * - the signature is recomputed with @smithy/signature-v4 (the SDK's signer) from what arrived:
 *   the method, the bucket and key, the query and the signed headers with their values, so a
 *   changed key, another method (an upload URL used to read, a download URL used to write) or a
 *   signed header sent with another value (a body longer than the signed Content-Length) fails;
 * - the credential must be ours, for this region and s3, the date must match its scope;
 * - a presigned URL expires X-Amz-Expires seconds after X-Amz-Date; a header-signed request may be
 *   at most 15 minutes off the clock; a header-signed body must match its x-amz-content-sha256.
 *
 * Failures answer as S3 does: an XML error with S3's code (AccessDenied, SignatureDoesNotMatch,
 * …), with CORS headers for the app's origins so the browser can read the status.
 */
export interface S3GateOptions {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Origins whose browsers may read the gate's own error answers. */
  origins: string[];
  now?: () => number;
}

type Refusal = { ok: false; status: number; code: string; message: string };
type Verdict = { ok: true; body?: Buffer } | Refusal;

const ALGORITHM = "AWS4-HMAC-SHA256";
const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;
const MAX_SKEW_MS = 15 * 60 * 1000;
/** The query parameters of a presigned URL's authentication: dropped before s3rver sees the request. */
const AUTH_QUERY = new Set(["X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders", "X-Amz-Signature", "X-Amz-Security-Token", "X-Amz-Content-Sha256"]);
/** Bodies of header-signed requests are hashed in memory: the SDK's XML calls, not file uploads. */
const MAX_SIGNED_BODY_BYTES = 16 * 1024 * 1024;

const deny = (status: number, code: string, message: string): Refusal => ({ ok: false, status, code, message });
const accessDenied = (message = "Access Denied") => deny(403, "AccessDenied", message);
const mismatch = () => deny(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.");

/** RFC 3986 percent-encoding, as SigV4 canonicalises (encodeURIComponent leaves !'()* alone). */
const escape = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** "20240131T235959Z" → epoch ms, or NaN. */
function parseAmzDate(value: string | undefined): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? "");
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
}

interface RawQuery {
  /** Each parameter as sent, in order, for passing on. */
  pieces: { raw: string; name: string; value: string }[];
  /** Decoded names to decoded values (arrays when repeated), for the signer. */
  values: Record<string, string | string[]>;
}

function parseQuery(search: string): RawQuery | undefined {
  const pieces: RawQuery["pieces"] = [];
  const values: RawQuery["values"] = {};
  for (const raw of search.split("&")) {
    if (!raw) continue;
    const eq = raw.indexOf("=");
    let name: string, value: string;
    try {
      name = decodeURIComponent(eq < 0 ? raw : raw.slice(0, eq));
      value = eq < 0 ? "" : decodeURIComponent(raw.slice(eq + 1));
    } catch {
      return undefined;
    }
    pieces.push({ raw, name, value });
    const earlier = values[name];
    values[name] = earlier === undefined ? value : ([] as string[]).concat(earlier, value);
  }
  return { pieces, values };
}

/** The path as SigV4 canonicalises it for S3: each segment decoded, then encoded once. */
function canonicalPath(path: string): string | undefined {
  try {
    return path
      .split("/")
      .map((segment) => escape(decodeURIComponent(segment)))
      .join("/");
  } catch {
    return undefined;
  }
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** "AKID/20240131/eu-central-2/s3/aws4_request" checked against ours and the request's date. */
function checkCredential(credential: string | undefined, amzDate: string, options: S3GateOptions): Refusal | undefined {
  const [accessKeyId, day, region, service, terminator, ...rest] = (credential ?? "").split("/");
  if (!accessKeyId || !day || !region || service !== "s3" || terminator !== "aws4_request" || rest.length) {
    return deny(400, "AuthorizationQueryParametersError", "The credential is malformed.");
  }
  if (accessKeyId !== options.credentials.accessKeyId) return deny(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.");
  if (region !== options.region) return deny(400, "AuthorizationQueryParametersError", `The authorization is for the wrong region; expecting '${options.region}'.`);
  if (day !== amzDate.slice(0, 8)) return deny(403, "SignatureDoesNotMatch", "The credential's date does not match X-Amz-Date.");
  return undefined;
}

function sameSignature(expected: string | undefined, given: string): boolean {
  if (!expected || expected.length !== given.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}

export function createS3Gate(options: S3GateOptions) {
  const now = options.now ?? Date.now;
  const signer = new SignatureV4({
    service: "s3",
    region: options.region,
    credentials: options.credentials,
    sha256: Hash.bind(null, "sha256"),
    // S3 signs the path as sent (encoded once), without normalising it.
    uriEscapePath: false,
    applyChecksum: false,
  });

  /** The request as the signer sees it: only the claimed signed headers, with the values that arrived. */
  function signable(req: IncomingMessage, url: URL, query: RawQuery, signedHeaders: string[], extraHeaders: Record<string, string> = {}) {
    const headers: Record<string, string> = {};
    for (const name of signedHeaders) {
      const value = headerValue(req.headers, name);
      if (value !== undefined) headers[name] = value;
    }
    const values = { ...query.values };
    delete values["X-Amz-Signature"];
    return {
      method: (req.method ?? "GET").toUpperCase(),
      protocol: "http:",
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: canonicalPath(url.pathname) ?? url.pathname,
      query: values,
      headers: { ...headers, ...extraHeaders },
    };
  }

  async function verifyPresigned(req: IncomingMessage, url: URL, query: RawQuery): Promise<Verdict> {
    const q = (name: string) => (typeof query.values[name] === "string" ? (query.values[name] as string) : undefined);
    if (q("X-Amz-Algorithm") !== ALGORITHM) return deny(400, "AuthorizationQueryParametersError", `X-Amz-Algorithm only supports "${ALGORITHM}".`);
    const amzDate = q("X-Amz-Date") ?? "";
    const signedAt = parseAmzDate(amzDate);
    const expires = Number(q("X-Amz-Expires"));
    const signature = q("X-Amz-Signature");
    const signedHeaders = (q("X-Amz-SignedHeaders") ?? "").split(";").filter(Boolean);
    if (Number.isNaN(signedAt) || !Number.isInteger(expires) || !signature || !signedHeaders.length) {
      return deny(400, "AuthorizationQueryParametersError", "Query-string authentication requires X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders and X-Amz-Signature.");
    }
    if (expires < 1 || expires > MAX_EXPIRES_SECONDS) return deny(400, "AuthorizationQueryParametersError", "X-Amz-Expires must be between 1 and 604800 seconds.");
    if (!signedHeaders.includes("host")) return deny(400, "AuthorizationQueryParametersError", "The host header must be signed.");
    if (query.values["X-Amz-Security-Token"] !== undefined) return deny(403, "InvalidToken", "The provided token is malformed or otherwise invalid.");
    const credentialError = checkCredential(q("X-Amz-Credential"), amzDate, options);
    if (credentialError) return credentialError;
    if (now() > signedAt + expires * 1000) return accessDenied("Request has expired");
    if (signedAt > now() + MAX_SKEW_MS) return accessDenied("Request is not valid yet");
    const payload = q("X-Amz-Content-Sha256") ?? UNSIGNED_PAYLOAD;
    if (payload !== UNSIGNED_PAYLOAD) return deny(501, "NotImplemented", "The local bucket accepts presigned URLs with UNSIGNED-PAYLOAD only.");

    // The signer takes the payload hash from this header; it is neither signed nor moved into the query.
    const request = signable(req, url, query, signedHeaders, signedHeaders.includes("x-amz-content-sha256") ? {} : { "x-amz-content-sha256": payload });
    const presigned = await signer.presign(request, {
      signingDate: new Date(signedAt),
      expiresIn: expires,
      signableHeaders: new Set(signedHeaders),
      unsignableHeaders: new Set(signedHeaders.includes("x-amz-content-sha256") ? [] : ["x-amz-content-sha256"]),
      unhoistableHeaders: new Set(Object.keys(request.headers)),
    });
    const computed = presigned.query?.["X-Amz-Signature"];
    const ok = presigned.query?.["X-Amz-SignedHeaders"] === signedHeaders.join(";") && sameSignature(typeof computed === "string" ? computed : undefined, signature);
    return ok ? { ok: true } : mismatch();
  }

  async function verifyHeader(req: IncomingMessage, url: URL, query: RawQuery, authorization: string): Promise<Verdict> {
    const fields = Object.fromEntries(
      authorization
        .slice(ALGORITHM.length)
        .split(",")
        .map((part) => part.trim().split("=") as [string, string]),
    );
    const signedHeaders = String(fields.SignedHeaders ?? "").split(";").filter(Boolean);
    const signature = String(fields.Signature ?? "");
    const amzDate = headerValue(req.headers, "x-amz-date") ?? "";
    const signedAt = parseAmzDate(amzDate);
    if (!fields.Credential || !signedHeaders.length || !signature) return deny(400, "AuthorizationHeaderMalformed", "The authorization header is malformed.");
    if (Number.isNaN(signedAt)) return accessDenied("AWS authentication requires a valid X-Amz-Date header");
    if (!signedHeaders.includes("host") || !signedHeaders.includes("x-amz-date")) return deny(400, "AuthorizationHeaderMalformed", "The host and x-amz-date headers must be signed.");
    const credentialError = checkCredential(fields.Credential, amzDate, options);
    if (credentialError) return credentialError.code === "AuthorizationQueryParametersError" ? { ...credentialError, code: "AuthorizationHeaderMalformed" } : credentialError;
    if (Math.abs(now() - signedAt) > MAX_SKEW_MS) return deny(403, "RequestTimeTooSkewed", "The difference between the request time and the current time is too large.");
    const payload = headerValue(req.headers, "x-amz-content-sha256");
    if (!payload) return deny(400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256");
    if (payload.startsWith("STREAMING-")) return deny(501, "NotImplemented", "The local bucket does not accept aws-chunked bodies.");

    const request = signable(req, url, query, signedHeaders, { "x-amz-content-sha256": payload });
    const signed = await signer.sign(request, {
      signingDate: new Date(signedAt),
      signableHeaders: new Set(signedHeaders),
      unsignableHeaders: new Set(signedHeaders.includes("x-amz-content-sha256") ? [] : ["x-amz-content-sha256"]),
    });
    const computed = /Signature=([0-9a-f]+)/.exec(String(signed.headers.authorization ?? ""))?.[1];
    const computedHeaders = /SignedHeaders=([^,]+)/.exec(String(signed.headers.authorization ?? ""))?.[1];
    if (computedHeaders !== signedHeaders.join(";") || !sameSignature(computed, signature)) return mismatch();
    if (payload === UNSIGNED_PAYLOAD) return { ok: true };

    // The signature covers the claimed hash: the body must have it.
    const body = await readBody(req);
    if (!body) return deny(400, "EntityTooLarge", "The local bucket hashes signed bodies up to 16 MiB.");
    if (createHash("sha256").update(body).digest("hex") !== payload) return deny(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.");
    return { ok: true, body };
  }

  /** Checks a request; answers whether (and with which already-read body) it may go on to the bucket. */
  async function verify(req: IncomingMessage): Promise<Verdict> {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    const query = parseQuery(url.search.slice(1));
    if (!query) return deny(400, "InvalidArgument", "The query string is not well-formed.");
    const authorization = headerValue(req.headers, "authorization");
    const presigned = query.values["X-Amz-Algorithm"] !== undefined;
    if (presigned && authorization) return deny(400, "InvalidArgument", "Only one auth mechanism allowed.");
    if (query.values.Signature !== undefined || authorization?.startsWith("AWS ")) {
      return deny(400, "InvalidRequest", `The authorization mechanism you have provided is not supported. Please use ${ALGORITHM}.`);
    }
    if (presigned) return verifyPresigned(req, url, query);
    if (authorization?.startsWith(`${ALGORITHM} `)) return verifyHeader(req, url, query, authorization);
    if (authorization) return deny(400, "AuthorizationHeaderMalformed", "The authorization header is malformed.");
    // Anonymous: the bucket is private (all public access blocked on AWS).
    return accessDenied();
  }

  function refuse(req: IncomingMessage, res: ServerResponse, verdict: Refusal) {
    const origin = headerValue(req.headers, "origin");
    const cors: Record<string, string> = origin && options.origins.includes(origin) ? { "access-control-allow-origin": origin, "access-control-expose-headers": "ETag", vary: "Origin" } : {};
    const requestId = randomUUID();
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${verdict.code}</Code><Message>${verdict.message.replace(/[<>&]/g, "")}</Message><RequestId>${requestId}</RequestId></Error>`;
    res.writeHead(verdict.status, { "content-type": "application/xml", "x-amz-request-id": requestId, ...cors });
    res.end(req.method === "HEAD" ? undefined : xml);
    // An upload refused before its body was read: discard the body (the client is still sending it).
    req.resume();
  }

  /**
   * The handler to put in front of the bucket's own (`next`): verified requests go on without
   * their authentication (s3rver treats them as anonymous, which it allows), the rest are refused.
   */
  return function gate(next: (req: IncomingMessage, res: ServerResponse) => void) {
    return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      try {
        // CORS preflights carry no credentials, on S3 as here: the bucket's CORS rules answer them.
        if (req.method === "OPTIONS") return next(req, res);
        const verdict = await verify(req);
        if (!verdict.ok) return refuse(req, res, verdict);
        next(withoutAuthentication(req, verdict.body), res);
      } catch (error) {
        console.error("[s3] request failed:", error);
        if (!res.headersSent) refuse(req, res, deny(500, "InternalError", "We encountered an internal error. Please try again."));
        else res.destroy();
      }
    };
  };
}

/** The whole body, or undefined when it is larger than a header-signed body may be here. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_SIGNED_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The request without its signature (and, when the body was read to hash it, with that body again). */
function withoutAuthentication(req: IncomingMessage, body: Buffer | undefined): IncomingMessage {
  const url = new URL(req.url ?? "/", "http://bucket");
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((raw) => raw && !AUTH_QUERY.has(decodeURIComponent(raw.split("=")[0]!)));
  const path = `${url.pathname}${kept.length ? `?${kept.join("&")}` : ""}`;
  const headers = { ...req.headers };
  delete headers.authorization;
  if (!body) {
    req.url = path;
    req.headers = headers;
    return req;
  }
  const replay = new IncomingMessage(req.socket);
  replay.method = req.method;
  replay.url = path;
  replay.headers = headers;
  replay.httpVersion = req.httpVersion;
  replay.httpVersionMajor = req.httpVersionMajor;
  replay.httpVersionMinor = req.httpVersionMinor;
  // Complete, or the message would count as aborted when it ends and destroy the socket.
  replay.complete = true;
  replay.push(body);
  replay.push(null);
  return replay;
}
