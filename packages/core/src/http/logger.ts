import { Logger } from "@aws-lambda-powertools/logger";

/**
 * Structured JSON logs. Only route keys, statuses, timings, ids and error codes go in: never a
 * request or response body, a token or a header value.
 */
export const logger = new Logger({ serviceName: "sealwork" });
