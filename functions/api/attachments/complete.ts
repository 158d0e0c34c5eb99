import { Attachment } from "@sealwork/core/conversation";
import { attachmentRoutes } from "@sealwork/contracts/attachments";
import { api } from "@sealwork/core/http/api";

export const handler = api(attachmentRoutes, "POST /api/conversations/{id}/attachments/{aid}/complete", ({ actor, params, body }) =>
  Attachment.complete(actor, params.id, params.aid, body),
);
