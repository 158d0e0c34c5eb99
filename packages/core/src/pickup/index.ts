export { Pickup } from "./pickup";
export type { PickupItem } from "./entities";
