import { Entity, Service } from "electrodb";
import { ConversationEntity, ParticipantEntity, MoteEntity, LocalIdEntity, ReservationEntity, AttachmentEntity } from "../conversation/entities";
import { GroupMembershipEntity } from "../group/entities";
import { InviteEntity, VerificationEntity } from "../invite/entities";
import { BackupEntity, KeyHeadEntity, KeypairEntity } from "../keys/entities";
import { PickupEntity, PickupLookupEntity } from "../pickup/entities";
import { AttemptEntity } from "../rate-limit/entities";
import { ContactEntity, UserEntity } from "../user/entities";
import { config } from "../config";
import { dynamo } from "./client";
import { SERVICE, primary } from "./schema";

/** Monotonic counters (user, key and conversation ids). */
export const CounterEntity = new Entity({
  model: { entity: "counter", version: "1", service: SERVICE },
  attributes: {
    name: { type: "string", required: true },
    value: { type: "number" },
  },
  indexes: {
    byName: { ...primary, pk: { ...primary.pk, composite: ["name"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/**
 * Every item kind of the one table, merged from the domains' entities.ts. A domain reads and
 * writes only its own entities; a transaction that spans domains gets each domain's items from
 * a verb of that domain (for example Conversation.creation).
 */
const entities = {
  counter: CounterEntity,
  attempt: AttemptEntity, // rate limits
  user: UserEntity, // accounts
  contact: ContactEntity,
  keypair: KeypairEntity, // account keys
  keyhead: KeyHeadEntity,
  backup: BackupEntity,
  invite: InviteEntity, // invitations
  verification: VerificationEntity,
  conversation: ConversationEntity, // conversations
  reservation: ReservationEntity,
  participant: ParticipantEntity,
  mote: MoteEntity,
  localid: LocalIdEntity,
  attachment: AttachmentEntity,
  groupmember: GroupMembershipEntity, // groups (placeholder)
  pickup: PickupEntity, // pickups
  pickuplookup: PickupLookupEntity,
};

let service: Service<typeof entities> | undefined;

/** The entities bound to the configured table and client (resolved on first use). */
export function db(): Service<typeof entities> {
  service ??= new Service(entities, { table: config().TABLE_NAME, client: dynamo() });
  return service;
}

/** The entities as a transaction's callback receives them, for verbs that add items to one. */
export type TransactionEntities = Parameters<Parameters<Service<typeof entities>["transaction"]["write"]>[0]>[0];
/** One item of a transaction's list. */
export type TransactionItem = ReturnType<TransactionEntities["conversation"]["create"]>["commit"] extends () => infer T ? T : never;

/** Why each item of a cancelled transaction failed ("ConditionalCheckFailed", "None", …), in order. */
export function cancellationReasons(result: { data: unknown }): (string | undefined)[] {
  return (result.data as { code?: string }[]).map((item) => item.code);
}
