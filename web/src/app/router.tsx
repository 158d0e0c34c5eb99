import { createBrowserRouter } from "react-router";
import { AboutPage } from "../features/about/about-page";
import { AdminPage } from "../features/admin/admin-page";
import { ConversationListPage } from "../features/conversations/conversation-list-page"; // conversations
import { ConversationPage } from "../features/conversations/conversation-page"; // conversations
import { ConversationRows } from "../features/conversations/conversation-rows"; // conversations
import { NewConversationPage } from "../features/conversations/new-conversation-page"; // conversations
import { NewPickupPage } from "../features/conversations/pickups/new-pickup-page"; // pickups
import { HomePage } from "../features/home/home-page";
import { InvitePage } from "../features/invite/invite-page";
import { PickupPopup } from "../features/keys/pickup-popup"; // pickups
import { LoginPage } from "../features/login/login-page";
import { SettingsPage } from "../features/settings/settings-page";
import { SetupPage } from "../features/setup/setup-page";
import { TotpPage } from "../features/totp/totp-page";
import { RequireAdmin, RequireAuth } from "./guards";
import { NotFoundPage } from "./not-found-page";
import { RouteError } from "./route-error";
import { AppLayout } from "./shell/app-layout";

/**
 * Routes of spec 000 §2 that exist so far. Conversations, pickups, groups and reports
 * arrive with their features; until then they fall through to not-found.
 */
export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    children: [
      // Pickups: a found pickup asks for its security code in the key popup's pickup state.
      { path: "/login", element: <LoginPage pickupPopup={(pickup, close) => <PickupPopup pickup={pickup} onCancel={close} />} /> },
      { path: "/setup", element: <SetupPage /> },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <HomePage conversations={<ConversationRows />} /> },
              // Conversations (spec 000 §2): the literal routes before the id.
              { path: "conversation/new", element: <NewConversationPage /> },
              { path: "conversation/list", element: <ConversationListPage /> },
              { path: "conversation/:id", element: <ConversationPage /> },
              { path: "pickup/new", element: <NewPickupPage /> },
              { path: "settings", element: <SettingsPage /> },
              // Two-factor login: setup and disable (spec 000 §2).
              { path: "settings/totp", element: <TotpPage /> },
              {
                path: "instanceadmin",
                element: (
                  <RequireAdmin>
                    <AdminPage />
                  </RequireAdmin>
                ),
              },
              {
                path: "invite",
                element: (
                  <RequireAdmin>
                    <InvitePage />
                  </RequireAdmin>
                ),
              },
              { path: "about", element: <AboutPage /> },
              { path: "*", element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
]);
