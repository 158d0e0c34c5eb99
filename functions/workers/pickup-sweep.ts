import { worker } from "@sealwork/core/http/worker";
import { Pickup } from "@sealwork/core/pickup";

/** The hourly sweep (functions/routes.ts schedules): removes every pickup past its validity end. */
export const handler = worker("pickup-sweep", async () => void (await Pickup.sweep()));
