import { attachmentErrorCodes } from "./attachments";
import { conversationErrorCodes } from "./conversations";
import { driveErrorCodes } from "./drive";
import { moteErrorCodes } from "./motes";
import { groupKeyErrorCodes } from "./group-keys";
import { groupErrorCodes } from "./groups";
import { identityErrorCodes } from "./identities";
import { instanceErrorCodes } from "./instance";
import { inviteErrorCodes } from "./invites";
import { keypairErrorCodes } from "./keypairs";
import { pageKeyErrorCodes } from "./page-keys";
import { pageErrorCodes } from "./pages";
import { pickupErrorCodes } from "./pickups";
import { roleErrorCodes } from "./roles";
import { totpErrorCodes } from "./totp";
import { userErrorCodes } from "./users";

/**
 * Every error code the API answers (`{ code, message, fields? }`): the HTTP layer's own, then
 * each area's (declared in its file). The server maps each to its HTTP status and English text
 * (packages/core/src/errors.ts and each domain's errors.ts); the SPA shows its own translation of
 * the code, so a German user never reads the server's English.
 */
export const ERROR_CODES = [
  "bad_request",
  "validation",
  "unauthenticated",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "too_many_attempts",
  "internal",
  ...userErrorCodes,
  ...instanceErrorCodes,
  ...totpErrorCodes,
  ...keypairErrorCodes,
  ...inviteErrorCodes,
  ...identityErrorCodes,
  ...conversationErrorCodes,
  ...attachmentErrorCodes,
  ...pickupErrorCodes,
  ...groupErrorCodes,
  ...pageErrorCodes,
  ...pageKeyErrorCodes,
  ...roleErrorCodes,
  ...groupKeyErrorCodes,
  ...driveErrorCodes,
  ...moteErrorCodes,
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
