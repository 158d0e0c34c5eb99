import type { PickupFragment } from "@sealwork/crypto";
import { pickupLookup } from "@sealwork/crypto";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { type GuestPickup, assertPickupFloor } from "../../lib/guest";
import { instanceQuery } from "../../lib/instance";

/** The pickup and the way it was entered disagree about the link secret. */
export class PickupLinkError extends Error {
  /** true: the pickup needs its link's secret, and only a typed code is at hand. */
  readonly needsLink: boolean;
  constructor(needsLink: boolean) {
    super(needsLink ? "this pickup needs its link" : "the link has a secret the pickup does not use");
    this.name = "PickupLinkError";
    this.needsLink = needsLink;
  }
}

/**
 * GET /api/pickup/{lookup}?meta=1, the lookup being pickupLookup(code, instance name): the
 * server finds a pickup without holding its code (docs/protocol.md, Pickups). It answers the
 * derivation parameters, not the envelope. A link secret at hand that the pickup does not use is
 * refused rather than dropped, so that a lying answer cannot make the guest derive a weaker key;
 * so are Argon2id parameters below the floor (WeakPickupError), before anything is derived.
 */
export async function lookupPickup({ code, linkSecret }: PickupFragment, instanceName: string): Promise<GuestPickup> {
  const lookup = await pickupLookup(code, instanceName);
  const meta = await call("GET /api/pickup/{lookup}", { params: { lookup }, query: { meta: "1" } });
  if (meta.link_secret !== (linkSecret !== null)) throw new PickupLinkError(meta.link_secret);
  const { salt, memoryKiB, iterations, parallelism } = meta;
  assertPickupFloor({ memoryKiB, iterations, parallelism });
  return { code, linkSecret, lookup, conversationId: meta.conversation_id, params: { salt, memoryKiB, iterations, parallelism, link: meta.link_secret ? 1 : 0 } };
}

export function useLookupPickup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fragment: PickupFragment) => lookupPickup(fragment, (await queryClient.fetchQuery(instanceQuery)).name),
  });
}
