import { accountPublicKeys, createInvitation, createInvitedIdentity, createRootIdentity, generateAccountKeys, identityKeys, keyId } from "@sealwork/crypto";

/** For unit tests: an instance's root (user 1) and Bob (user 2, bob@example.org) whom the root invited, with their chains as the server serves them. */
export async function rootAndBob() {
  const rootKeys = await generateAccountKeys();
  const root = await createRootIdentity({ userId: 1, email: "root@example.org", created: Date.now() }, rootKeys);
  const temp = await generateAccountKeys();
  const invitation = await createInvitation({ inviteId: 9, email: "bob@example.org", temp: await accountPublicKeys(temp), expires: Date.now() + 86_400_000 }, await identityKeys(1, rootKeys));
  const bob = await createInvitedIdentity({ userId: 2, created: Date.now(), invitation }, await generateAccountKeys(), temp);
  const rootChain = { userId: 1, records: [root] };
  const bobChain = { userId: 2, records: [bob], issuers: [rootChain], admins: [] };
  return { rootKeys, root, rootChain, bob, bobChain, anchors: [await keyId(await accountPublicKeys(rootKeys))] };
}
