import { User, api, fail, isMember } from "@sealwork/core";

export const handler = api("PATCH /api/users/{id}", ({ caller, params, body }) =>
  isMember(caller) ? User.update(caller, params.id, body) : fail("forbidden"),
);
