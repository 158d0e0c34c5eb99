import { Health, api } from "@sealwork/core";

export const handler = api("GET /api/health", () => Health.check());
