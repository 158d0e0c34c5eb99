/** The "groupKeys" namespace in English: a group's keys, refused or waiting, and creating a group. */
export const en = {
  distribution: {
    heading: "This group is blocked",
    movedHeading: "This group waits for its key",
    log_fork:
      "The history of this group's members is not the one this browser verified before, or not the one another member's message was sent in: the server may be showing different people different histories, or an older one. Nothing of this group is shown or written until this is cleared up.",
    log_invalid: "The history of this group's members does not verify: a change was not signed by someone with the right to make it. Nothing of this group is shown or written.",
    ghost_participant: "This group's key record names someone who is not a member by its signed history. The key is refused: nothing of this group is shown or written.",
    record_invalid: "This group's key record does not verify against the signed history of its members. The key is refused: nothing of this group is shown or written.",
    copy_invalid: "The key you were given for this group was not handed out by one of its administrators, or is not the key they committed to. It is refused: nothing of this group is shown or written.",
    key_moved: "Your key was renewed or reset since this group's key was last handed out, so it was given to a key you no longer have. It opens again once an administrator of this group opens it and renews its key for everyone.",
    waiting: "Your key for this group has not been handed out yet. It arrives as soon as a group administrator is online.",
    rekeyPending: "A member left this group. Messages wait until a group administrator's browser renews the group key, which it does as soon as one is online.",
  },
  conversation: {
    loading: "Opening the group's messages…",
  },
  status: {
    ready: "Group key verified (epoch {{epoch}})",
  },
  create: {
    title: "New group",
    name: "Name",
    nameMissing: "Please enter a name for your group.",
    members: "Initial members",
    submit: "Create group",
    failed: "Error creating the group. Please try again later!",
  },
  people: {
    remove: "Remove {{name}}",
  },
};
