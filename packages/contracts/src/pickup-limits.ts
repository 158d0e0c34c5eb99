/**
 * Wrong security codes (auth keys) a pickup takes before it is locked for good. A module of its
 * own: authentication asks on every guest request (core/pickup/live.ts), so every area's Lambda
 * needs this number, and none should carry the pickup and conversation schemas for it.
 */
export const PICKUP_MAX_WRONG = 10;
