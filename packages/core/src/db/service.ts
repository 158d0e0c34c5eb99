import { Entity, Service } from "electrodb";
import { ConversationEntity, ConversationGoneEntity, EpochEntity, LogEntriesEntity, ParticipantEntity, MoteEntity, LocalIdEntity, ReservationEntity, AttachmentEntity } from "../conversation/entities";
import { DriveFileEntity, DriveGrantEntity, DriveMoteEntity, DriveItemEntity, DriveRecordIdEntity, DriveStateEntity } from "../drive/entities";
import { MoteCommentEntity, MoteFileEntity, MoteRecordIdEntity, PageMoteEntity } from "../mote/entities";
import { GroupEntity, GroupEpochEntity, GroupLocalIdEntity, GroupLogEntity, GroupMembershipEntity, GroupMessageEntity, GroupPageEntity, GroupWrapEntity, PageKeyCopyEntity, PageKeyEntity, RoleAssignmentEntity, RoleEntity } from "../group/entities";
import { AccountDataEntity, AdminCertificateEntity, IdentityEntity, LegacyCertificateEntity, LegacyRuleEntity } from "../identity/entities";
import { InviteEntity, InviteReservationEntity } from "../invite/entities";
import { BackupEntity, KeyHeadEntity, KeypairEntity, TransitEntity } from "../keys/entities";
import { PickupEntity, PickupLookupEntity } from "../pickup/entities";
import { AttemptEntity } from "../rate-limit/entities";
import { FileWatchEntity } from "../sweep/entities";
import { ContactEntity, UserEntity } from "../user/entities";
import { VerificationEntity } from "../verification/entities";
import { config } from "../config";
import { dynamo } from "./client";
import { keyed, primary, SERVICE } from "./schema";

/** Monotonic counters (user, key and conversation ids). */
export const CounterEntity = new Entity({
  model: { entity: "counter", version: "1", service: SERVICE },
  attributes: {
    name: { type: "string", required: true },
    value: { type: "number" },
  },
  indexes: {
    byName: keyed(primary, ["name"], []),
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
  transit: TransitEntity,
  invite: InviteEntity, // invitations
  invitereservation: InviteReservationEntity,
  identity: IdentityEntity, // protocol v2 identities
  admincert: AdminCertificateEntity,
  legacycert: LegacyCertificateEntity,
  legacyrule: LegacyRuleEntity,
  accountdata: AccountDataEntity,
  verification: VerificationEntity, // verification codes (registration, forgotten password)
  conversation: ConversationEntity, // conversations
  reservation: ReservationEntity,
  participant: ParticipantEntity,
  mote: MoteEntity,
  localid: LocalIdEntity,
  attachment: AttachmentEntity,
  conversationgone: ConversationGoneEntity,
  logentries: LogEntriesEntity, // protocol v2: membership logs and key epochs
  conversationepoch: EpochEntity,
  group: GroupEntity, // groups, their pages and roles, and their keys (opaque)
  groupmember: GroupMembershipEntity,
  grouppage: GroupPageEntity,
  pagekey: PageKeyEntity,
  pagekeycopy: PageKeyCopyEntity,
  role: RoleEntity,
  roleassignment: RoleAssignmentEntity,
  grouplog: GroupLogEntity,
  groupepoch: GroupEpochEntity,
  groupwrap: GroupWrapEntity,
  groupmote: GroupMessageEntity,
  grouplocalid: GroupLocalIdEntity,
  pickup: PickupEntity, // pickups
  pickuplookup: PickupLookupEntity,
  driveitem: DriveItemEntity, // groups' drives
  driverecordid: DriveRecordIdEntity,
  drivestate: DriveStateEntity,
  drivefile: DriveFileEntity,
  drivemote: DriveMoteEntity,
  drivegrant: DriveGrantEntity,
  pagemote: PageMoteEntity, // motes (cards) of pages and their comments
  motecomment: MoteCommentEntity,
  moterecordid: MoteRecordIdEntity,
  motefile: MoteFileEntity,
  filewatch: FileWatchEntity, // uploads the sweep looks at after a day
};

let service: Service<typeof entities> | undefined;

/** The entities bound to the configured table and client (resolved on first use). */
export function db(): Service<typeof entities> {
  service ??= new Service(entities, { table: config().TABLE_NAME, client: dynamo() });
  return service;
}

/** The entities as a transaction's callback receives them, for verbs that add items to one. */
export type TransactionEntities = Parameters<Parameters<Service<typeof entities>["transaction"]["write"]>[0]>[0];
type TransactionBuilder = Parameters<Service<typeof entities>["transaction"]["write"]>[0];
/** One item of a transaction's list, as a domain's verb builds it for a transaction elsewhere. */
export type TransactionItem = ReturnType<TransactionBuilder>[number];

/** Why each item of a cancelled transaction failed ("ConditionalCheckFailed", "None", …), in order. */
export function cancellationReasons(result: { data: unknown }): (string | undefined)[] {
  return (result.data as { code?: string }[]).map((item) => item.code);
}

/** Transactions cancelled only by a conflict with another one are tried again this often. */
const CONFLICT_ATTEMPTS = 8;

/**
 * Writes the transaction `build` returns, again (built afresh) while it is cancelled only because
 * another transaction touched one of its items at the same moment. Returns the last result:
 * `canceled` with the reasons when a condition failed.
 */
export async function writeTransaction(build: (tx: TransactionEntities) => TransactionItem[]) {
  for (let attempt = 1; ; attempt++) {
    const result = await db().transaction.write(build).go();
    const reasons = result.canceled ? cancellationReasons(result) : [];
    if (!result.canceled || !reasons.includes("TransactionConflict") || reasons.includes("ConditionalCheckFailed") || attempt >= CONFLICT_ATTEMPTS) {
      return { canceled: result.canceled, reasons };
    }
    await new Promise((resolve) => setTimeout(resolve, (10 + Math.random() * 20) * attempt));
  }
}
