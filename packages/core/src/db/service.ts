import { Entity, Service } from "electrodb";
import type { conversationEntities } from "../conversation/entities";
import type { driveEntities } from "../drive/entities";
import type { groupEntities } from "../group/entities";
import type { identityEntities } from "../identity/entities";
import type { inviteEntities } from "../invite/entities";
import type { keysEntities } from "../keys/entities";
import type { moteEntities } from "../mote/entities";
import type { pickupEntities } from "../pickup/entities";
import type { rateLimitEntities } from "../rate-limit/entities";
import type { sweepEntities } from "../sweep/entities";
import type { userEntities } from "../user/entities";
import type { verificationEntities } from "../verification/entities";
import { config } from "../config";
import { dynamo } from "./client";
import { registeredEntities, registrationCount } from "./registry";
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
 * Every item kind of the one table, as the types see them: each domain's map from its
 * entities.ts (type-only imports, which cost a bundle nothing). A domain reads and writes only
 * its own entities; a transaction that spans domains gets each domain's items from a verb of that
 * domain (for example Conversation.creation).
 */
type Entities = { counter: typeof CounterEntity } & typeof rateLimitEntities & typeof userEntities & typeof keysEntities &
  typeof inviteEntities & typeof identityEntities & typeof verificationEntities & typeof conversationEntities &
  typeof groupEntities & typeof pickupEntities & typeof driveEntities & typeof moteEntities & typeof sweepEntities;

/** The domain (folder of packages/core/src) whose entities.ts declares each item kind. */
const OWNERS: Record<keyof Entities, string> = {
  counter: "db",
  attempt: "rate-limit",
  user: "user",
  contact: "user",
  keypair: "keys",
  keyhead: "keys",
  backup: "keys",
  transit: "keys",
  keyreset: "keys",
  invite: "invite",
  invitereservation: "invite",
  identity: "identity",
  admincert: "identity",
  legacycert: "identity",
  legacyrule: "identity",
  accountdata: "identity",
  verification: "verification",
  conversation: "conversation",
  reservation: "conversation",
  participant: "conversation",
  mote: "conversation",
  localid: "conversation",
  attachment: "conversation",
  conversationgone: "conversation",
  logentries: "conversation",
  conversationepoch: "conversation",
  group: "group",
  groupmember: "group",
  grouppage: "group",
  pagekey: "group",
  pagekeycopy: "group",
  role: "group",
  roleassignment: "group",
  grouplog: "group",
  groupepoch: "group",
  groupwrap: "group",
  groupmote: "group",
  grouplocalid: "group",
  pickup: "pickup",
  pickuplookup: "pickup",
  driveitem: "drive",
  driverecordid: "drive",
  drivestate: "drive",
  drivefile: "drive",
  drivemote: "drive",
  drivegrant: "drive",
  pagemote: "mote",
  motecomment: "mote",
  moterecordid: "mote",
  motefile: "mote",
  filewatch: "sweep",
};

let service: Service<Entities> | undefined;
let builtFrom = -1;

/**
 * The entities bound to the configured table and client: the counter and every entity registered
 * so far by the domains' entities.ts (db/registry.ts), that is those of the domains this bundle
 * imports. Built on first use, and again after a later import registered more. Asking for an
 * entity whose domain was not imported (`db().entities.x` or a transaction's `tx.x`) throws,
 * naming it and its domain, instead of failing later on `undefined`.
 */
export function db(): Service<Entities> {
  if (!service || builtFrom !== registrationCount()) {
    builtFrom = registrationCount();
    service = new Service({ ...registeredEntities(), counter: CounterEntity } as unknown as Entities, { table: config().TABLE_NAME, client: dynamo() });
    service.entities = guarded(service.entities);
  }
  return service;
}

/** `entities`, refusing loudly the item kinds of the table it lacks (a transaction's callback gets the same object). */
function guarded(entities: Entities): Entities {
  return new Proxy(entities, {
    get(target, name, receiver) {
      if (typeof name === "string" && !(name in target) && Object.hasOwn(OWNERS, name)) {
        const domain = OWNERS[name as keyof Entities];
        throw new Error(
          `The ${name} entity is not registered in this bundle: the module that uses it must import "${domain}/entities" (packages/core/src/${domain}/entities.ts), whose import registers the ${domain} domain's entities.`,
        );
      }
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
}

/** The entities as a transaction's callback receives them, for verbs that add items to one. */
export type TransactionEntities = Parameters<Parameters<Service<Entities>["transaction"]["write"]>[0]>[0];
type TransactionBuilder = Parameters<Service<Entities>["transaction"]["write"]>[0];
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
