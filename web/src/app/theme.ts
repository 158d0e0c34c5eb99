import { createTheme } from "@mantine/core";

/** Spec 000 §2: phone under 630 px, tablet 630, tablet-landscape 900, widescreen 1200. */
export const BREAKPOINTS = { tablet: 630, tabletLandscape: 900, widescreen: 1200 } as const;

const em = (px: number) => `${px / 16}em`;

export const theme = createTheme({
  primaryColor: "indigo",
  defaultRadius: "md",
  // Mantine's named breakpoints mapped onto the product's, so hiddenFrom="xs" means "not on phones".
  breakpoints: {
    xs: em(BREAKPOINTS.tablet),
    sm: em(BREAKPOINTS.tabletLandscape),
    md: em(BREAKPOINTS.widescreen),
    lg: em(1408),
    xl: em(1600),
  },
});
