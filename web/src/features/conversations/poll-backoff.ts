/** Spec 000 §4 and §9: message polling starts at 5000 ms, × 1.1 after a quiet poll or an error, at most 20000 ms. */
export const POLL_START_MS = 5000;
export const POLL_FACTOR = 1.1;
export const POLL_CAP_MS = 20000;
export const POLL_TIMEOUT_MS = 4000;
/** The notification check runs every 10 s and stops after an error. */
export const NOTIFY_EVERY_MS = 10_000;

/** The wait before the next poll, given the last wait and whether that poll brought news. */
export function nextPollDelay(previous: number, news: boolean): number {
  if (news) return POLL_START_MS;
  return Math.min(POLL_CAP_MS, Math.round(previous * POLL_FACTOR));
}
