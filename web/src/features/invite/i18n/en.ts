/** The "invite" namespace in English: the invite feature. German (de.ts) must have exactly these keys. */
export const en = {
  titles: {
    invite: "Invite",
  },
  login: {
    phonePlaceholder: "+41 79 123 45 67",
  },
  heading: "Invite a user",
  email: "Email address",
  phone: "Phone number",
  groups: "Groups",
  roles: "Roles",
  roleAdmin: "Administrator",
  roleSuper: "Super administrator",
  sendEmail: "Send an invitation email",
  message: "Message",
  submit: "Send invite",
  submitting: "Creating temporary keys for this invitation… This takes a moment.",
  forwarding: "Sending the invitation…",
  startOver: "Start over",
  created: {
    text: "The invitation for {{email}} was created.",
    hint: "Give this invitation code to the invitee by another channel (in person or by phone). It is not in the email, and you cannot see it again. They need it after registering.",
    codeLabel: "Invitation code",
    another: "Invite another user",
  },
  errors: {
    superOnly: "Only a super administrator can invite a super administrator.",
    server: "Server error {{status}} while sending your invite. Please try again later.",
    keys: "Error generating temporary keys for this invitation. Please exit the app and try again.",
    corrupt: "An unrecoverable error occurred sending this invite, and it may be corrupt. Please resend the invitation from the administration panel.",
  },
};
