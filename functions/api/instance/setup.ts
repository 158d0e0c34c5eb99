import { Instance } from "@sealwork/core/instance";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/instance/setup", ({ body }) => Instance.setup(body));
