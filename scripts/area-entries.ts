import { AREA_ENTRIES, writeAreaEntries } from "../functions/area-entries";

/** `npm run areas`: rewrites functions/areas/*.ts from the route table (functions/routes.ts). */
const changed = writeAreaEntries();
console.log(changed.length ? `${AREA_ENTRIES}: rewrote ${changed.join(", ")}` : `${AREA_ENTRIES}: up to date`);
