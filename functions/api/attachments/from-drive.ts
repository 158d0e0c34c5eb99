import { attachmentRoutes } from "@sealwork/contracts/attachments";
import { Attachment } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api(attachmentRoutes, "POST /api/conversations/{id}/attachments/from-drive", ({ actor, params, body }) => Attachment.fromDrive(actor, params.id, body));
