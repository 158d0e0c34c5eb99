export * from "./caller";
export * from "./config";
export * from "./errors";
export { Health } from "./health";
export { Instance } from "./instance";
export { Mail } from "./mail";
export { JobMessage, Queue } from "./queue";
export { RateLimit } from "./rate-limit";
export { User } from "./user";
export { Totp } from "./totp"; // two-factor login
export { Keypair } from "./keypair"; // account keys
export { Backup } from "./backup"; // account keys: backup store
export { Invite } from "./invite"; // invitations
export { Conversation } from "./conversation"; // conversations
export { Attachment } from "./attachment"; // conversations: files
export { Pickup } from "./pickup"; // pickups
export { Group } from "./group"; // conversations: group membership (placeholder)
export { NO_CONTENT, api, type NoContent } from "./http/api";
export { worker } from "./http/worker";
export { logger } from "./http/logger";
