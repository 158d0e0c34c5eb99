import { Keypair, api } from "@sealwork/core";

/** The caller's key state, or with fetch_only=1&uid= the short answer about another user's key. */
export const handler = api("GET /api/keypairs", ({ caller, query }) =>
  query.fetch_only === "1" && query.uid !== undefined ? Keypair.fetchOnly(caller, query.uid) : Keypair.state(caller),
);
