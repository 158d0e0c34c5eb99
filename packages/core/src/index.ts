/**
 * The whole core, merged, for the local runtime and the tests. Lambda handlers import the
 * domain they call (`@sealwork/core/conversation`) and the HTTP stack (`@sealwork/core/http/api`)
 * instead, so that each area's bundle carries only what its routes use. It registers every
 * domain's entities and error texts (domains.ts).
 */
import "./domains";
export * from "./access";
export * from "./config";
export * from "./errors";
export { Health } from "./instance/health";
export { Instance } from "./instance/instance";
export { Mail } from "./mail";
export { JobMessage, Queue } from "./queue";
export { RateLimit } from "./rate-limit/rate-limit";
export { Login, PasswordReset, User } from "./user";
export { Totp } from "./totp/totp";
export { Keypair } from "./keys/keypair";
export { Backup } from "./keys/backup";
export { Invite, Registration } from "./invite";
export { VerificationCode } from "./verification";
export { Attachment, Conversation, GUEST_NAME } from "./conversation";
export { Pickup } from "./pickup";
export { Group } from "./group/group";
export { NO_CONTENT, api, type NoContent } from "./http/api";
export { worker } from "./http/worker";
export { logger } from "./http/logger";
