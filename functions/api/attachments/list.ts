import { Attachment } from "@sealwork/core/conversation";
import { attachmentRoutes } from "@sealwork/contracts/attachments";
import { api } from "@sealwork/core/http/api";

export const handler = api(attachmentRoutes, "GET /api/conversations/{id}/attachments", ({ actor, params }) => Attachment.list(actor, params.id));
