import { Instance, api } from "@sealwork/core";

export const handler = api("GET /api/instance", () => Instance.info());
