import { Instance } from "@sealwork/core/instance";
import { instanceRoutes } from "@sealwork/contracts/instance";
import { api } from "@sealwork/core/http/api";

export const handler = api(instanceRoutes, "GET /api/instance", () => Instance.info());
