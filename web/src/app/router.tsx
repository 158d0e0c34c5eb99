import type { ComponentType, ReactNode } from "react";
import { createBrowserRouter, redirect } from "react-router";
import type { Feature } from "../lib/instance";
import { RequireAdmin, RequireAuth, RequireFeature } from "./guards";
import { NotFoundPage } from "./not-found-page";
import { PageLoader } from "./page-loader";
import { RouteError } from "./route-error";

/**
 * A route's screen, loaded with the route (its feature's code and strings in their own chunk),
 * optionally wrapped (a guard, or props that compose two features).
 */
function page<M>(load: () => Promise<M>, render: (module: M) => ReactNode) {
  return async () => {
    const module = await load();
    const Component: ComponentType = () => render(module);
    return { Component };
  };
}

/** Administration and invitations: instance admins only (others see the not-found page). */
const adminOnly = (screen: ReactNode) => <RequireAdmin>{screen}</RequireAdmin>;

/** A screen of a feature the instance may switch off: not-found while it is off. */
const when = (feature: Feature, screen: ReactNode) => <RequireFeature feature={feature}>{screen}</RequireFeature>;

/**
 * Routes of spec 000 §2 and spec 001 §2 that exist so far. Reports arrive with their feature; until
 * then they fall through to not-found. Every screen, and the signed-in shell, loads lazily: the
 * first load brings only what the address needs.
 */
export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    HydrateFallback: PageLoader,
    children: [
      // Pickups: a found pickup asks for its security code in the key popup's pickup state.
      {
        path: "/login",
        lazy: page(
          () => Promise.all([import("../features/login/login-page"), import("../features/keys/pickup-popup")]),
          ([{ LoginPage }, { PickupPopup }]) => <LoginPage pickupPopup={(pickup, close) => <PickupPopup pickup={pickup} onCancel={close} />} />,
        ),
      },
      { path: "/setup", lazy: page(() => import("../features/setup/setup-page"), ({ SetupPage }) => <SetupPage />) },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: page(() => import("./shell/app-layout"), ({ AppLayout }) => <AppLayout />),
            children: [
              {
                index: true,
                lazy: page(
                  () => Promise.all([import("../features/home/home-page"), import("../features/conversations/conversation-rows"), import("../features/groups/group-rows")]),
                  ([{ HomePage }, { ConversationRows }, { GroupRows }]) => <HomePage groups={<GroupRows />} conversations={<ConversationRows />} />,
                ),
              },
              // Conversations and pickups (spec 000 §2): the literal routes before the id; none while
              // the instance has conversations switched off.
              { path: "conversation/new", lazy: page(() => import("../features/conversations/new-conversation-page"), ({ NewConversationPage }) => when("convo", <NewConversationPage />)) },
              { path: "conversation/list", lazy: page(() => import("../features/conversations/conversation-list-page"), ({ ConversationListPage }) => when("convo", <ConversationListPage />)) },
              { path: "conversation/:id", lazy: page(() => import("../features/conversations/conversation-page"), ({ ConversationPage }) => when("convo", <ConversationPage />)) },
              { path: "pickup/new", lazy: page(() => import("../features/conversations/pickups/new-pickup-page"), ({ NewPickupPage }) => when("convo", <NewPickupPage />)) },
              // The side panels as routes (spec 000 §2): the left menu, and the details of the conversation open last.
              { path: "panel-left", lazy: page(() => import("./shell/left-panel-page"), ({ LeftPanelPage }) => when("leftnav", <LeftPanelPage />)) },
              {
                path: "panel-right",
                lazy: page(() => import("../features/conversations/conversation-details-page"), ({ ConversationDetailsPage }) => when("convo", <ConversationDetailsPage />)),
              },
              // Groups (issue 12): a new group (super administrators).
              { path: "group/new", lazy: page(() => import("../features/groups/keys/new-group-page"), ({ NewGroupPage }) => adminOnly(<NewGroupPage />)) },
              // Groups (spec 001 §2): the frame loads the group once for its start, pages, new page and conversations.
              {
                path: "group/:groupId",
                lazy: page(() => import("../features/groups/frame/group-frame"), ({ GroupFrame }) => <GroupFrame />),
                children: [
                  { index: true, lazy: page(() => import("../features/groups/frame/group-frame"), ({ GroupStart }) => <GroupStart />) },
                  { path: "page/:pageId", lazy: page(() => import("../features/groups/pages/page-screen"), ({ PageScreen }) => <PageScreen />) },
                  { path: "page/:pageId/view/:viewId", lazy: page(() => import("../features/groups/pages/page-screen"), ({ PageScreen }) => <PageScreen />) },
                  // The members page is the reserved page "members" (a short link for it).
                  { path: "members", loader: ({ params }) => redirect(`/group/${params.groupId}/page/members`) },
                  { path: "newpage", lazy: page(() => import("../features/groups/pages/new-page-screen"), ({ NewPageScreen }) => <NewPageScreen />) },
                  // A conversation inside a group (spec 000 §2): the conversation screen itself.
                  { path: "conversation/:id", lazy: page(() => import("../features/conversations/conversation-page"), ({ ConversationPage }) => when("convo", <ConversationPage />)) },
                ],
              },
              { path: "settings", lazy: page(() => import("../features/settings/settings-page"), ({ SettingsPage }) => <SettingsPage />) },
              // Two-factor login: setup and disable (spec 000 §2).
              { path: "settings/totp", lazy: page(() => import("../features/totp/totp-page"), ({ TotpPage }) => <TotpPage />) },
              { path: "instanceadmin", lazy: page(() => import("../features/admin/admin-page"), ({ AdminPage }) => adminOnly(<AdminPage />)) },
              { path: "invite", lazy: page(() => import("../features/invite/invite-page"), ({ InvitePage }) => adminOnly(<InvitePage />)) },
              { path: "about", lazy: page(() => import("../features/about/about-page"), ({ AboutPage }) => <AboutPage />) },
              { path: "*", element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
]);
