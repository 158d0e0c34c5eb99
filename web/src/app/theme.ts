import { type CSSVariablesResolver, createTheme, darken, luminance } from "@mantine/core";

/** Spec 000 §2: phone under 630 px, tablet 630, tablet-landscape 900, widescreen 1200. */
export const BREAKPOINTS = { tablet: 630, tabletLandscape: 900, widescreen: 1200 } as const;

const em = (px: number) => `${px / 16}em`;

/** The names the theme gives controls that have no text of their own, in the interface language. */
export interface ThemeLabels {
  close: string;
}

/**
 * The theme, with the close buttons of every modal, drawer and notification named (they are
 * icons; axe: button-name). Rebuilt when the language changes.
 *
 * Colours meet WCAG AA (4.5:1) on white: filled buttons, links and coloured text use shade 8
 * (indigo 5.7:1, red 4.5:1) rather than Mantine's 6 (4.3:1 and 3.3:1); see `cssVariablesResolver`.
 */
export function createAppTheme(labels: ThemeLabels) {
  const closeButtonProps = { "aria-label": labels.close };
  return createTheme({
    primaryColor: "indigo",
    primaryShade: 8,
    defaultRadius: "md",
    // Mantine's named breakpoints mapped onto the product's, so hiddenFrom="xs" means "not on phones".
    breakpoints: {
      xs: em(BREAKPOINTS.tablet),
      sm: em(BREAKPOINTS.tabletLandscape),
      md: em(BREAKPOINTS.widescreen),
      lg: em(1408),
      xl: em(1600),
    },
    components: {
      // Plain objects, not Modal.extend(): that would bring the components into the first load.
      Modal: { defaultProps: { closeButtonProps } },
      Drawer: { defaultProps: { closeButtonProps } },
      Notification: { defaultProps: { closeButtonProps } },
      // An open menu holds only its items: focus goes to the first one, not to a placeholder
      // without a role (axe: aria-required-children).
      Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    },
  });
}

/** The contrast the theme's texts keep: WCAG AA's 4.5:1, with a little to spare for rounding. */
const READABLE = 4.6;

/** WCAG's contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `text` darkened in small steps until it reads on `background` (READABLE), or as it is if it already does. */
export function readableOn(text: string, background: string): string {
  let color = text;
  for (let step = 0; step < 40 && contrast(color, background) < READABLE; step++) color = darken(color, 0.04);
  return color;
}

/**
 * Dimmed text (hints, times, descriptions) and error texts dark enough to read: gray 7 (8.2:1) and
 * red 8 (4.5:1). The "light" variant (badges, light buttons, avatars' initials, alert titles) writes
 * shade 9 on shade 1, and on shade 2 under the mouse, which for most colours is under 4.5:1 (red
 * 3.9 on a hovered "Leave group" button): each colour's text is shade 9 darkened until it reads on
 * shade 2, and so on shade 1 as well.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--mantine-color-error": "var(--mantine-color-red-8)",
    "--mantine-color-placeholder": "var(--mantine-color-gray-6)",
    ...Object.fromEntries(Object.entries(theme.colors).map(([name, shades]) => [`--mantine-color-${name}-light-color`, readableOn(shades[9], shades[2])])),
  },
  dark: {},
});
