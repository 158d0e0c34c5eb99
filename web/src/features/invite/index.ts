// What other features use of the invite feature: preparing temporary keys and signing an invitation (an expired one issued again).
export { prepareInvite, signInvitation, type PreparedInvite } from "./create-invite";
