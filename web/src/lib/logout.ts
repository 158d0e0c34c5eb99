import { clearSession } from "./session";
import { PREFERENCE_PREFIX, STORAGE_PREFIX, TRUST_PREFIX } from "./storage";

/**
 * - "logout": the session and this app's cached data go; the local key store (IndexedDB),
 *   preferences and the instance anchors this browser pinned (storage.ts, TRUST_PREFIX) stay.
 * - "keep-cache": only the session goes.
 * - "wipe": everything this origin stored goes, the key store included.
 */
export type LogoutKind = "logout" | "keep-cache" | "wipe";

/**
 * Clears what `kind` says, then loads `to` afresh (the login screen by default; null reloads the
 * current page), so that nothing of the account stays in memory either.
 */
export async function logoutAndReload(kind: LogoutKind, to: string | null = "/login"): Promise<void> {
  clearSession({ notify: false });
  if (kind === "logout") {
    clearAppStorage();
  } else if (kind === "wipe") {
    localStorage.clear();
    sessionStorage.clear();
    await deleteAllDatabases();
  }
  if (to === null) window.location.reload();
  else window.location.assign(to);
}

function clearAppStorage(): void {
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith(STORAGE_PREFIX) && !key.startsWith(PREFERENCE_PREFIX) && !key.startsWith(TRUST_PREFIX)) localStorage.removeItem(key);
  }
  sessionStorage.clear();
}

async function deleteAllDatabases(): Promise<void> {
  if (typeof indexedDB === "undefined") return;
  const databases = await indexedDB.databases();
  await Promise.all(
    databases.map(
      ({ name }) =>
        new Promise<void>((resolve) => {
          if (!name) return resolve();
          const request = indexedDB.deleteDatabase(name);
          request.onsuccess = () => resolve();
          request.onerror = () => {
            console.error(`Could not delete the local database ${name}`, request.error);
            resolve();
          };
          // Another tab holds the database open; it is deleted once that tab lets go.
          request.onblocked = () => resolve();
        }),
    ),
  );
}
