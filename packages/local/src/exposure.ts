import { chmodSync, renameSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/**
 * What the local runtime lets other machines and other web pages see. The app's port listens on
 * loopback unless HOST says otherwise; whatever it listens on, the development outbox (codes,
 * pickup links) answers only loopback clients that name a loopback host, so neither a phone on the
 * network nor a web page that rebinds its own name to 127.0.0.1 (DNS rebinding) can read it.
 */
export const DEFAULT_HOST = "127.0.0.1";

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^::ffff:/, "");
  return plain === "::1" || (isIP(plain) === 4 && plain.startsWith("127."));
}

/** A Host header naming this machine's loopback (localhost, 127.x.x.x or [::1]), any port. */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.replace(/:\d+$/, "");
  return name === "localhost" || name.endsWith(".localhost") || isLoopbackAddress(name);
}

/** A request from this machine, addressed to it by a loopback name. */
export function isLocalRequest(req: IncomingMessage): boolean {
  return isLoopbackAddress(req.socket.remoteAddress) && isLoopbackHostHeader(req.headers.host);
}

/**
 * The origins the SPA may be loaded from: APP_URL's, and the loopback names of the app's port
 * (http://localhost:3000 and http://127.0.0.1:3000 are different origins to a browser).
 */
export function appOrigins(appUrl: string, port: number): string[] {
  return [...new Set([new URL(appUrl).origin, `http://localhost:${port}`, `http://127.0.0.1:${port}`])];
}

/**
 * Writes a file only its owner may read (secrets, the runtime's settings): into a fresh file of
 * mode 600 that replaces the old one, so an earlier, wider mode does not survive.
 */
export function writePrivateFile(file: string, content: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, content, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}
