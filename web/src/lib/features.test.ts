import type { InstanceInfo } from "@sealwork/contracts";
import { describe, expect, it } from "vitest";
import { isFeatureOn } from "./features";

const instance = (featureOff: Partial<InstanceInfo["featureOff"]>, disableFeatures: string[]): InstanceInfo =>
  ({ featureOff: { convo: false, drive: false, pages: false, ...featureOff }, disableFeatures }) as InstanceInfo;

describe("feature switches (spec 000 §1, §3)", () => {
  it("are on unless switched off", () => {
    for (const feature of ["convo", "drive", "pages", "leftnav"] as const) expect(isFeatureOn(instance({}, []), feature)).toBe(true);
  });

  it("are off when featureOff or disableFeatures says so, either one", () => {
    expect(isFeatureOn(instance({ convo: true }, []), "convo")).toBe(false);
    expect(isFeatureOn(instance({}, ["convo"]), "convo")).toBe(false);
    expect(isFeatureOn(instance({}, ["drive", "pages"]), "pages")).toBe(false);
    expect(isFeatureOn(instance({}, ["convo"]), "drive")).toBe(true);
  });

  it("switch the left navigation off only by disableFeatures", () => {
    expect(isFeatureOn(instance({}, ["leftnav"]), "leftnav")).toBe(false);
    expect(isFeatureOn(instance({ convo: true, drive: true, pages: true }, []), "leftnav")).toBe(true);
  });
});
