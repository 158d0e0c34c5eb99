/**
 * Who may call a route. Every route declares the caller kinds it admits; the authorisation
 * harness in test/security calls each route as every other kind and expects 401 or 403.
 */
export const CALLER_KINDS = ["anonymous", "guest", "user", "admin", "super"] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

export const ANYONE: readonly CallerKind[] = CALLER_KINDS;
/** Signed-in members of the instance, whatever their role. */
export const MEMBERS: readonly CallerKind[] = ["user", "admin", "super"];
/** Members, and a pickup's guest (the domain admits the guest to that pickup's conversation only). */
export const PARTICIPANTS: readonly CallerKind[] = ["guest", "user", "admin", "super"];
export const ADMINS: readonly CallerKind[] = ["admin", "super"];
export const SUPER_ADMINS: readonly CallerKind[] = ["super"];
