import { Health } from "@sealwork/core/instance";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/health", () => Health.check());
