import { Instance } from "@sealwork/core/instance";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/instance", () => Instance.info());
