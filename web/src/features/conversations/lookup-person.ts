import { call } from "../../lib/api";

export interface FoundPerson {
  id: number;
  /** What the user typed: the exact email address or phone number. */
  contact: string;
}

/** GET /api/users?lookup=: finds a person by their exact email address or phone number. */
export async function lookupPerson(contact: string): Promise<FoundPerson> {
  const trimmed = contact.trim();
  const found = await call("GET /api/users", { query: { lookup: trimmed } });
  return { id: found.id, contact: trimmed };
}
