/**
 * The app's own worker scripts, the one kind of script URL the Trusted Types default policy lets
 * through (trusted-types.ts). A module that starts a worker names its script here first; the set
 * is module scope, so no markup or injected string can add to it. Apart from trusted-types.ts so
 * that a module starting a worker does not install the policy (a bench bundles such modules into
 * a page that has one already).
 */
const workerScripts = new Set<string>();

/** Names one of the app's own worker scripts (a `?worker&url` import) to the policy; returns it for `new Worker`. */
export function workerScriptUrl(url: string): string {
  workerScripts.add(url);
  return url;
}

/** A script URL let through: one of the app's own workers, whole. */
export function ownWorkerScript(input: string): string | null {
  return typeof input === "string" && workerScripts.has(input) ? input : null;
}
