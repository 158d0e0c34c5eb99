import { inject } from "vitest";

// Lets tests use the domain layer (e.g. to create an invited account) against the same table.
Object.assign(process.env, inject("runtime").env, { POWERTOOLS_LOG_LEVEL: "WARN" });
