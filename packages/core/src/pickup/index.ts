export { Pickup } from "./pickup";
export { withPickupViews } from "./views";
export type { PickupItem } from "./entities";
