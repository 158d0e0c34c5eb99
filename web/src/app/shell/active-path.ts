/**
 * Whether a menu entry for `to` is the current page: its path or one below it, by whole segments,
 * so /conversation/1 is not active on /conversation/12.
 */
export function isActivePath(pathname: string, to: string): boolean {
  if (to === "/") return pathname === "/";
  const base = to.replace(/\/$/, "");
  return pathname === base || pathname.startsWith(`${base}/`);
}
