// Generated from functions/routes.ts by `npm run areas`: do not edit. The "conversations" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as conversationsList } from "../api/conversations/list";
import { handler as conversationsNotifyCheck } from "../api/conversations/notify-check";
import { handler as conversationsReserve } from "../api/conversations/reserve";
import { handler as conversationsCreate } from "../api/conversations/create";
import { handler as conversationsLoad } from "../api/conversations/load";
import { handler as conversationsRename } from "../api/conversations/rename";
import { handler as conversationsPoll } from "../api/conversations/poll";
import { handler as conversationsAppend } from "../api/conversations/append";
import { handler as conversationsParticipate } from "../api/conversations/participate";
import { handler as conversationsUnparticipate } from "../api/conversations/unparticipate";
import { handler as conversationsLog } from "../api/conversations/log";
import { handler as conversationsAppendLog } from "../api/conversations/append-log";
import { handler as attachmentsList } from "../api/attachments/list";
import { handler as attachmentsStart } from "../api/attachments/start";
import { handler as attachmentsComplete } from "../api/attachments/complete";
import { handler as attachmentsDownload } from "../api/attachments/download";
import { handler as attachmentsFromDrive } from "../api/attachments/from-drive";
import { handler as conversationsArchive } from "../api/conversations/archive";
import { handler as conversationsOwnKey } from "../api/conversations/own-key";

export const handler = dispatch({
  "GET /api/users/{id}/conversations": conversationsList,
  "GET /api/notify/check": conversationsNotifyCheck,
  "POST /api/conversations/reserve": conversationsReserve,
  "POST /api/conversations": conversationsCreate,
  "GET /api/conversations/{id}": conversationsLoad,
  "PATCH /api/conversations/{id}": conversationsRename,
  "GET /api/conversations/{id}/poll": conversationsPoll,
  "POST /api/conversations/{id}/append": conversationsAppend,
  "POST /api/conversations/{id}/participate": conversationsParticipate,
  "POST /api/conversations/{id}/unparticipate": conversationsUnparticipate,
  "GET /api/conversations/{id}/log": conversationsLog,
  "POST /api/conversations/{id}/log": conversationsAppendLog,
  "GET /api/conversations/{id}/attachments": attachmentsList,
  "POST /api/conversations/{id}/attachments": attachmentsStart,
  "POST /api/conversations/{id}/attachments/{aid}/complete": attachmentsComplete,
  "GET /api/conversations/{id}/attachments/{aid}": attachmentsDownload,
  "POST /api/conversations/{id}/attachments/from-drive": attachmentsFromDrive,
  "POST /api/conversations/{id}/archive": conversationsArchive,
  "POST /api/conversations/{id}/key": conversationsOwnKey,
  "POST /api/conversations/{id}": conversationsRename,
});
