import { Instance, api } from "@sealwork/core";

export const handler = api("POST /api/instance/setup", ({ body }) => Instance.setup(body));
