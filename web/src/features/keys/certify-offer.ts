import { call } from "../../lib/api";
import { memoryStore } from "../../lib/memory-store";

/**
 * The setup administrator's offer to certify the keys from version 1 (docs/protocol.md §14.14),
 * right after their browser published the instance's root: until then nobody could certify
 * anything, and the certification panel is deep in Administration. Made once, when the server
 * lists uncertified accounts (a hint: the panel checks every key it certifies itself); shown by
 * CertifyOffer (certify-offer-modal.tsx) once the key popup has closed.
 */
export const certifyOffer = memoryStore<{ count: number }>();

/** After the root is published: asks the server which version 1 accounts wait for a certificate, and offers the panel when some do. */
export async function offerCertification(uid: number): Promise<void> {
  const { accounts } = await call("GET /api/identities/uncertified");
  const count = accounts.filter((account) => account.user.id !== uid).length;
  if (count > 0) certifyOffer.set({ count });
}
