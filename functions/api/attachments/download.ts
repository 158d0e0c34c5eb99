import { Attachment, api } from "@sealwork/core";

export const handler = api("GET /api/conversations/{id}/attachments/{aid}", ({ caller, params, query }) =>
  Attachment.download(caller, params.id, params.aid, query.thumb === "1"),
);
