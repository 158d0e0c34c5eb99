/** The "shell" namespace in English: the signed-in shell, the not-found page and the route error (app). German (de.ts) must have exactly these keys. */
export const en = {
  titles: {
    notFound: "Not found",
    menu: "Menu",
  },
  mainMenu: "Main menu",
  home: "Home",
  goHome: "Go to home",
  openSettings: "Open settings",
  userMenu: "User menu",
  settings: "Settings",
  admin: "Administration",
  invite: "Invite",
  logout: "Logout",
  logoutPlain: "Logout",
  logoutKeepCache: "Logout keeping local cache",
  logoutWipe: "Wipe and logout",
  status: "Status",
  statusCurrent: "Status: {{status}}",
  statusOnline: "Online",
  statusAway: "Away",
  statusBusy: "Busy",
  statusOffline: "Offline",
  recently: "Recently",
  nothingRecent: "Nothing recent!",
  openNavigation: "Open navigation",
  closeNavigation: "Close navigation",
  expandMenu: "Expand menu",
  collapseMenu: "Collapse menu",
  staging: "Staging",
  notFound: {
    text: "Requested content not found.",
    home: "Back to home",
  },
  conversations: {
    allConversations: "All Conversations",
    newConversationMenu: "New Conversation",
    unread: "Unread",
    popover: {
      label: "Conversations",
    },
  },
  pickups: {
    guest: {
      menuItem: "Your pickup",
    },
  },
};
