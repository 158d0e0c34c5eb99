import type { Session } from "@sealwork/contracts";
import { adminSession, http, type Reply } from "./api";
import { createSession } from "./users";

/** Groups over the API, as the SPA calls them (docs/api.md, Groups). */

type Who = Pick<Session, "id" | "api_token">;
type Json = Record<string, unknown>;

/** A group made by the first administrator (a super administrator) or `by`, with `members`; answers its view. */
export async function createGroup(members: Who[], options: { by?: Who; name?: string } = {}): Promise<{ id: number; by: Who } & Json> {
  const by = options.by ?? (await adminSession());
  const reply = await http<{ id: number } & Json>("POST", "/api/groups", { token: by.api_token, body: { name: options.name ?? "Team", members: members.map((m) => m.id) } });
  if (reply.status !== 200) throw new Error(`creating a group failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { ...reply.body, by };
}

export const assignMember = (who: Who, groupId: number, body: Json): Promise<Reply> => http("POST", `/api/groups/${groupId}/assignMember`, { token: who.api_token, body });
export const revokeMember = (who: Who, groupId: number, body: Json): Promise<Reply> => http("POST", `/api/groups/${groupId}/revokeMember`, { token: who.api_token, body });
export const makeAdmin = (who: Who, groupId: number, uid: number): Promise<Reply> => http("POST", `/api/groups/${groupId}/makeAdminMember`, { token: who.api_token, body: { member_uid: uid } });

/** An opaque stand-in for a signed record (log entry, group record, wrap): the server stores and serves it as it came. */
export const blob = (label: string, n = 0): Json => ({ v: 1, kind: "stand-in", label, n, signature: `sig-${label}-${n}` });

/** A GET and a POST as one person. */
export const getAs = <T = Json>(who: Who, path: string): Promise<Reply<T>> => http<T>("GET", path, { token: who.api_token });
export const postAs = <T = Json>(who: Who, path: string, body: unknown): Promise<Reply<T>> => http<T>("POST", path, { token: who.api_token, body });

/** A super administrator (Sue) who made a group with Ann and Ben, and Olly who is in none of it. */
export async function groupTeam(name = "Team") {
  const [admin, ann, ben, outsider] = await Promise.all([
    createSession({ admin: true, superAdmin: true, name: "Sue" }),
    createSession({ name: "Ann" }),
    createSession({ name: "Ben" }),
    createSession({ name: "Olly" }),
  ]);
  const group = (await createGroup([ann, ben], { by: admin, name })).id;
  return { admin, ann, ben, outsider, group };
}
