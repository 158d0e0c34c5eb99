import { type CSSVariablesResolver, createTheme } from "@mantine/core";

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

/**
 * Dimmed text (hints, times, descriptions) and error texts dark enough to read: gray 7 (8.2:1) and
 * red 8 (4.5:1). The "light" variant (badges, avatars' initials, alert titles) writes shade 9 on
 * shade 1, which for the warm colours is under 4.5:1 (yellow 2.7, lime 3.3, orange 3.6, green
 * 3.8, teal 4.3, red 4.5): their text is shade 9 darkened until it reaches 4.6:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--mantine-color-error": "var(--mantine-color-red-8)",
    "--mantine-color-placeholder": "var(--mantine-color-gray-6)",
    "--mantine-color-red-light-color": "#c52929",
    "--mantine-color-teal-light-color": "#087a57",
    "--mantine-color-green-light-color": "#267b37",
    "--mantine-color-lime-light-color": "#4b790b",
    "--mantine-color-yellow-light-color": "#a85700",
    "--mantine-color-orange-light-color": "#bb3e0d",
  },
  dark: {},
});
