import { Attachment } from "@sealwork/core/conversation";
import { attachmentRoutes } from "@sealwork/contracts/attachments";
import { api } from "@sealwork/core/http/api";

export const handler = api(attachmentRoutes, "POST /api/conversations/{id}/attachments", ({ actor, params, body }) => Attachment.start(actor, params.id, body));
