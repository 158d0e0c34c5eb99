/**
 * The response headers of the SPA, the same on AWS (the Web stack's CloudFront response headers
 * policy) and locally (packages/local/src/static.ts). No imports: the local runtime loads it too.
 *
 * The Content-Security-Policy is what an end-to-end encrypted app needs it to be: the code that
 * holds the keys comes from the site only (no inline script, no eval; WebAssembly may be compiled,
 * for Argon2id), and the page talks to the API and the files bucket only, so injected markup can
 * neither run script nor send what it reads elsewhere. Styles may be inline (Mantine sets them in
 * style attributes and a style tag); images may be blob: (decrypted thumbnails) and data: (the
 * TOTP QR code). Nobody may frame the app. Trusted Types are required for every script sink
 * (`require-trusted-types-for 'script'`), and the only policy the page may create is `default`
 * (web/src/lib/trusted-types.ts: markup-free text for Mantine's <style> elements, the rich body's
 * inert parse, FullCalendar's two fixed layout probes, and the app's own worker scripts).
 */
export interface SiteOrigins {
  /** The API's origin when it is not the site's own (on AWS: the HTTP API's URL). */
  api?: string;
  /** The origin of the presigned upload and download URLs: the files bucket. */
  bucket: string;
}

export function contentSecurityPolicy(origins: SiteOrigins, { https }: { https: boolean }): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'none'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "blob:", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(origins.api ? [origins.api] : []), origins.bucket],
    "manifest-src": ["'self'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "object-src": ["'none'"],
    "require-trusted-types-for": ["'script'"],
    "trusted-types": ["default"],
  };
  const policy = Object.entries(directives).map(([name, values]) => `${name} ${values.join(" ")}`);
  // Over HTTPS only: locally the bucket is http://127.0.0.1, which the browser would try as https.
  if (https) policy.push("upgrade-insecure-requests");
  return policy.join("; ");
}

/** The other security headers, as lower-case names; the Web stack maps them onto CloudFront's policy. */
export const SITE_HEADERS = {
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
} as const;

/** HSTS on the site (HTTPS only, so on CloudFront): two years, subdomains included. */
export const HSTS_MAX_AGE_SECONDS = 2 * 365 * 24 * 3600;

/** Everything the SPA's responses carry, for a server that sets plain headers (the local runtime). */
export function siteHeaders(origins: SiteOrigins, options: { https: boolean }): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(origins, options),
    ...SITE_HEADERS,
    ...(options.https ? { "strict-transport-security": `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains` } : {}),
  };
}
