import { AppShell } from "@mantine/core";
import { useDisclosure, useLocalStorage, useMediaQuery } from "@mantine/hooks";
import { lazy, Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { useNotifyCheck } from "../../features/conversations/notify-check"; // conversations
import { useGroupKeyKeeper } from "../../features/groups/keys/keeper"; // group keys
import { useGroupKeyWaits } from "../../features/groups/keys/wrap-wait"; // group keys
import { KeyGate } from "../../features/keys/key-gate"; // account keys
import { type DrivePicker as DrivePickerComponent, DrivePickerContext } from "../../lib/drive-picker";
import { useFeature, useInstance } from "../../lib/instance";
import { PREFERENCE_PREFIX } from "../../lib/storage";
import { BREAKPOINTS } from "../theme";
import { LeftPanel } from "./left-panel";
import { TopBar } from "./top-bar";
import { useIdleLogout } from "./use-idle-logout";
import { ns } from "../i18n";

/** 'Select from drive...' in conversations: the groups' drive picker, its own chunk, loaded when opened. */
const LazyDrivePicker = lazy(() => import("../../features/groups/drive/drive-picker").then(({ DrivePicker }) => ({ default: DrivePicker })));
const DrivePicker: DrivePickerComponent = (props) => (
  <Suspense fallback={null}>
    <LazyDrivePicker {...props} />
  </Suspense>
);

/** Spec 000 §2: side menu 70 px, 140 px maximised. */
const MENU_WIDTH = 70;
const MENU_WIDTH_MAXIMISED = 140;

/** The signed-in shell: top bar, left panel (a drawer behind the burger on phones) and the page. */
export function AppLayout() {
  const { t } = useTranslation(ns);
  const { pathname } = useLocation();
  const { data: instance } = useInstance();
  const [drawerOpen, drawer] = useDisclosure(false);
  const [maximised, setMaximised] = useLocalStorage({
    key: `${PREFERENCE_PREFIX}menu-maximised`,
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  const isPhone = useMediaQuery(`(max-width: ${BREAKPOINTS.tablet - 0.02}px)`) ?? false;
  // Spec 000 §2: the left panel is maximised on conversation routes.
  const onConversation = pathname.startsWith("/conversation/");
  const wide = maximised || onConversation;
  // Feature switches (spec 000 §1): without the left navigation the top bar leads everywhere.
  const withNavigation = useFeature("leftnav") === true;
  const conversations = useFeature("convo") === true;
  useIdleLogout(instance?.idleTimeout ?? 0);
  // Conversations: the 10 s notification check feeds the unread dots everywhere.
  useNotifyCheck(conversations);
  // Groups: an admin's browser hands out the group keys members lack (pending members, a rekey after a leave).
  useGroupKeyKeeper();
  // Groups: a page that waits for this member's copy of a group key looks for it once, not once per part.
  useGroupKeyWaits();

  // Choosing a place in the drawer closes it.
  const closeDrawer = drawer.close;
  useEffect(() => closeDrawer(), [pathname, closeDrawer]);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{
        width: wide ? MENU_WIDTH_MAXIMISED : MENU_WIDTH,
        breakpoint: "xs",
        collapsed: { mobile: !drawerOpen || !withNavigation, desktop: !withNavigation },
      }}
      padding="md"
    >
      <AppShell.Header>
        <TopBar navigation={withNavigation ? { open: drawerOpen, toggle: drawer.toggle } : null} />
      </AppShell.Header>
      {withNavigation ? (
        <AppShell.Navbar component="nav" aria-label={t("mainMenu")}>
          <LeftPanel
            maximised={wide || isPhone}
            onToggleMaximised={isPhone || onConversation ? undefined : () => setMaximised((current) => !current)}
          />
        </AppShell.Navbar>
      ) : null}
      <AppShell.Main>
        {/* Account keys: the secure-key popup blocks the page until the key is unlocked. */}
        <KeyGate>
          <DrivePickerContext.Provider value={DrivePicker}>
            <Outlet />
          </DrivePickerContext.Provider>
        </KeyGate>
      </AppShell.Main>
    </AppShell>
  );
}
