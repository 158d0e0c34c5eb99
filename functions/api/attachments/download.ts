import { Attachment } from "@sealwork/core/conversation";
import { attachmentRoutes } from "@sealwork/contracts/attachments";
import { api } from "@sealwork/core/http/api";

export const handler = api(attachmentRoutes, "GET /api/conversations/{id}/attachments/{aid}", ({ actor, params, query }) =>
  Attachment.download(actor, params.id, params.aid, query.thumb === "1"),
);
