import type { InstanceInfo } from "@sealwork/contracts";

/**
 * The features an instance can switch off (spec 000 §1, §3): `featureOff` names conversations
 * (with pickups), drive and pages; `disableFeatures` lists those and more ("leftnav", the left
 * navigation). Off in either place is off.
 */
export type Feature = "convo" | "drive" | "pages" | "leftnav";

export function isFeatureOn(instance: InstanceInfo, feature: Feature): boolean {
  const off = feature === "leftnav" ? false : instance.featureOff[feature];
  return !off && !instance.disableFeatures.includes(feature);
}
