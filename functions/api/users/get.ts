import { User, api, fail, isAdmin, isMember } from "@sealwork/core";

export const handler = api("GET /api/users/{id}", async ({ caller, params }) => {
  if (!isMember(caller) || (caller.uid !== params.id && !isAdmin(caller))) fail("forbidden");
  const user = await User.get(params.id);
  return user ? User.toPublic(user) : fail("not_found");
});
