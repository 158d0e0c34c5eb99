import { worker } from "@sealwork/core/http/worker";
import { UploadSweep } from "@sealwork/core/sweep";

/** The hourly sweep (functions/routes.ts schedules): deletes the uploads nothing took within their day. */
export const handler = worker("upload-sweep", async () => void (await UploadSweep.run()));
