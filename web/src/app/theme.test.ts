import { DEFAULT_THEME, mergeMantineTheme } from "@mantine/core";
import { describe, expect, it } from "vitest";
import { contrast, createAppTheme, cssVariablesResolver, readableOn } from "./theme";

describe("the theme's colours", () => {
  const theme = mergeMantineTheme(DEFAULT_THEME, createAppTheme({ close: "Close" }));
  const light = cssVariablesResolver(theme).light;

  it("measures contrast as WCAG does", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#ffffff", "#ffffff")).toBe(1);
    // Mantine's red 6 on white: the 3.3:1 that made the theme use shade 8.
    expect(contrast(theme.colors.red[6], "#ffffff")).toBeCloseTo(3.3, 1);
  });

  it("leaves a text that reads as it is, and darkens one that does not until it reads", () => {
    expect(readableOn("#212529", "#ffffff")).toBe("#212529");
    const red = readableOn(theme.colors.red[9], theme.colors.red[2]);
    expect(contrast(theme.colors.red[9], theme.colors.red[2])).toBeLessThan(4.5);
    expect(contrast(red, theme.colors.red[2])).toBeGreaterThanOrEqual(4.5);
  });

  it("writes every colour's light variant readably on its background and its hovered background", () => {
    const names = Object.keys(theme.colors);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const text = light[`--mantine-color-${name}-light-color`]!;
      for (const background of [theme.colors[name]![1], theme.colors[name]![2]]) {
        expect({ name, ratio: contrast(text, background) >= 4.5 }).toEqual({ name, ratio: true });
      }
    }
  });
});
