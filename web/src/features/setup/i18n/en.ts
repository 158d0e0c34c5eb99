/** The "setup" namespace in English: the setup feature. German (de.ts) must have exactly these keys. */
export const en = {
  titles: {
    setup: "Setup",
  },
  heading: "Set up {{title}}",
  intro: "Create the first administrator of this instance.",
  name: "Name",
  email: "Email address",
  password: "Password",
  passwordConfirmation: "Password confirmation",
  submit: "Create administrator",
  alreadySetUp: "This instance is already set up.",
  goToLogin: "Go to login",
  missingToken: "This setup link is incomplete. Open the full link that the server printed.",
  failed: "Error setting up this instance. Please try again later.",
};
