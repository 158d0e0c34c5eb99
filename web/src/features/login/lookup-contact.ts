import { normaliseContact, type Response } from "@sealwork/contracts";
import { useMutation } from "@tanstack/react-query";
import { call } from "../../lib/api";

export type Account = Response<"GET /api/users">;

/** GET /api/users?lookup=<contact>: which account a phone number or email belongs to. */
export function lookupContact(contact: string): Promise<Account> {
  return call("GET /api/users", { query: { lookup: normaliseContact(contact) } });
}

export function useLookupContact() {
  return useMutation({ mutationFn: lookupContact });
}
