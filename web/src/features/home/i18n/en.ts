/** The "home" namespace in English: the home feature. German (de.ts) must have exactly these keys. */
export const en = {
  titles: {
    home: "Home",
  },
  create: "Create",
  newConversation: "New conversation",
  newGroup: "New group",
  newPickup: "New pickup",
  greeting: "Hello, {{name}}!",
  groups: "Groups",
  noGroups: "No groups yet",
  noGroupsHint: "Groups you are a member of will appear here.",
  conversations: "Conversations",
  noConversations: "No conversations yet",
  noConversationsHint: "Your conversations and pickups will appear here.",
};
