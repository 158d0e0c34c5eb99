// Generated from functions/routes.ts by `npm run areas`: do not edit. The "groups" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as groupsListMine } from "../api/groups/list-mine";
import { handler as groupsPeople } from "../api/groups/people";
import { handler as groupsCreate } from "../api/groups/create";
import { handler as groupsGet } from "../api/groups/get";
import { handler as groupsUpdate } from "../api/groups/update";
import { handler as groupsMembers } from "../api/groups/members";
import { handler as groupsAssignMember } from "../api/groups/assign-member";
import { handler as groupsRevokeMember } from "../api/groups/revoke-member";
import { handler as groupsMakeAdminMember } from "../api/groups/make-admin-member";
import { handler as groupsLog } from "../api/groups/log";
import { handler as groupsEpoch } from "../api/groups/epoch";
import { handler as groupsAppendLog } from "../api/groups/append-log";
import { handler as groupsWrapStatus } from "../api/groups/wrap-status";
import { handler as groupsWraps } from "../api/groups/wraps";
import { handler as groupsStoreWraps } from "../api/groups/store-wraps";
import { handler as groupsConversation } from "../api/groups/conversation";
import { handler as groupsConversationPoll } from "../api/groups/conversation-poll";
import { handler as groupsConversationAppend } from "../api/groups/conversation-append";
import { handler as pagesList } from "../api/pages/list";
import { handler as pagesCreate } from "../api/pages/create";
import { handler as pagesGet } from "../api/pages/get";
import { handler as pagesChange } from "../api/pages/change";
import { handler as pagesPermit } from "../api/pages/permit";
import { handler as pagesPermissions } from "../api/pages/permissions";
import { handler as pagesKeys } from "../api/pages/keys";
import { handler as pagesStoreKeys } from "../api/pages/store-keys";
import { handler as rolesCreate } from "../api/roles/create";
import { handler as rolesDelete } from "../api/roles/delete";
import { handler as rolesAssign } from "../api/roles/assign";
import { handler as rolesUnassign } from "../api/roles/unassign";

export const handler = dispatch({
  "GET /api/users/{id}/groups": groupsListMine,
  "GET /api/people": groupsPeople,
  "POST /api/groups": groupsCreate,
  "GET /api/groups/{id}": groupsGet,
  "PATCH /api/groups/{id}": groupsUpdate,
  "GET /api/groups/{id}/members": groupsMembers,
  "POST /api/groups/{id}/assignMember": groupsAssignMember,
  "POST /api/groups/{id}/revokeMember": groupsRevokeMember,
  "POST /api/groups/{id}/makeAdminMember": groupsMakeAdminMember,
  "GET /api/groups/{id}/log": groupsLog,
  "GET /api/groups/{id}/epochs/{epoch}": groupsEpoch,
  "POST /api/groups/{id}/log": groupsAppendLog,
  "GET /api/groups/{id}/wraps/status": groupsWrapStatus,
  "GET /api/groups/{id}/wraps": groupsWraps,
  "POST /api/groups/{id}/wraps": groupsStoreWraps,
  "GET /api/groups/{id}/conversation": groupsConversation,
  "GET /api/groups/{id}/conversation/poll": groupsConversationPoll,
  "POST /api/groups/{id}/conversation/append": groupsConversationAppend,
  "GET /api/pages": pagesList,
  "POST /api/pages": pagesCreate,
  "GET /api/pages/{id}": pagesGet,
  "PATCH /api/pages/{id}": pagesChange,
  "DELETE /api/pages/{id}": pagesChange,
  "POST /api/pages/{id}/permit": pagesPermit,
  "GET /api/pages/{id}/permissions": pagesPermissions,
  "GET /api/pages/{id}/keys": pagesKeys,
  "POST /api/pages/{id}/keys": pagesStoreKeys,
  "POST /api/roles": rolesCreate,
  "DELETE /api/roles/{id}": rolesDelete,
  "POST /api/roles/{id}/assign": rolesAssign,
  "POST /api/roles/{id}/unassign": rolesUnassign,
  "POST /api/groups/{id}": groupsUpdate,
  "POST /api/pages/{id}": pagesChange,
  "POST /api/roles/{id}": rolesDelete,
});
