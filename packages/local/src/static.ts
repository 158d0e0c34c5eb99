import { createReadStream, existsSync, statSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

/**
 * Serves the built SPA; paths that are not files get index.html, as CloudFront is set up to. Every
 * answer carries `headers`: the site's security headers (stacks/site-headers.ts), as CloudFront's
 * response headers policy adds them.
 */
export function serveStatic(distDir: string, pathname: string, res: ServerResponse, headers: Record<string, string>): void {
  const index = join(distDir, "index.html");
  if (!existsSync(index)) {
    res.writeHead(503, { ...headers, "content-type": "text/plain; charset=utf-8" }).end("The web app is not built. Run `npm start` (it builds it) or `npm run build:web`.\n");
    return;
  }
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape cannot name a file; the SPA answers it with its not-found page.
  }
  const candidate = normalize(join(distDir, decoded));
  const inside = candidate.startsWith(distDir + sep);
  const file = inside && existsSync(candidate) && statSync(candidate).isFile() ? candidate : index;
  const immutable = file !== index && file.includes(`${sep}assets${sep}`);
  res.writeHead(200, {
    ...headers,
    "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
  });
  createReadStream(file).pipe(res);
}
