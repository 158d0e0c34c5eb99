import { accountDataSave, adminCertificateBody, id as idSchema, identityPublish, legacyRuleBody, type IdentityBundle } from "@sealwork/contracts";
import { isCryptoError, keyId, parseEnvelope } from "@sealwork/crypto";
import type * as z from "zod";
import { requireAdmin, requireMember, type Actor } from "../access";
import { isConditionFailure } from "../db/conditions";
import { db } from "../db/service";
import { fail, valid } from "../errors";
import { Invitation } from "../invite/read";
import { Keypair } from "../keys/keypair";
import { KeyResets } from "../keys/resets";
import { currentKeys } from "../keys/current";
import { allUsers, getUser, toPublic } from "../user/read";
import { IdentityRecords, SETUP_USER_ID } from "./records";
import "../conversation/errors";
import "./entities";
import "./errors";

/** A signed record as the answer's JSON object (the contracts do not know the crypto package's types). */
const json = (record: object) => record as Record<string, unknown>;


/**
 * Protocol v2's identity routes (docs/protocol.md §14; docs/api.md, "Identities"): a user's chain
 * bundle for any member, the instance's anchors, one's own pending signed invitation, publishing
 * one's next identity record, admin certificates, and one's encrypted pins. The checks of what is
 * stored are in records.ts, shared with the key and invitation transactions.
 */
export namespace Identity {
  /** GET /api/identities/{id}: the user's chain with its issuers and certificates, or their v1 key as a legacy contact. */
  export async function chain(actor: Actor, id: number): Promise<IdentityBundle> {
    requireMember(actor);
    valid(idSchema, id);
    if (!(await getUser(id))) fail("user_not_found");
    const bundle = await IdentityRecords.bundle(id);
    if (bundle) return { chain: toChain(bundle), legacy: null };
    const key = await legacyKey(id);
    if (!key) return { chain: null, legacy: null };
    const stored = await IdentityRecords.legacyCertificate(id, key.id);
    const certificate = stored ? (JSON.parse(stored.record) as { record: { issuerUserId: number } }) : null;
    const issuer = certificate ? await IdentityRecords.bundle(certificate.record.issuerUserId) : null;
    return {
      chain: null,
      legacy: {
        id: key.id,
        encrypt_public: key.encryptPublic,
        sign_public: key.signPublic,
        timestamp: key.timestamp,
        signature: JSON.parse(key.signature) as Record<string, unknown>,
        certificate: certificate && issuer ? json(certificate) : null,
        issuer: certificate && issuer ? toChain(issuer) : null,
      },
    };
  }

  /**
   * GET /api/identities/uncertified: the accounts whose current key is a valid version 1 key (no
   * identity record) without an administrator's certificate, for Administration's "Keys from
   * version 1 to certify". A hint, not a proof: the client fetches and checks each key it
   * certifies (docs/protocol.md §14.14). Accounts with a temporary key (an invitation or a key
   * reset not taken over) or none have nothing to certify and are absent. Cost: the users query,
   * then batch reads of up to 100 items each (heads, keys, birth records, certificates).
   */
  export async function uncertified(actor: Actor) {
    requireAdmin(actor);
    const users = await allUsers();
    const keys = await currentKeys(users.map((user) => user.id));
    const legacy = [...keys].filter(([, key]) => key.valid && key.item.type === "public").map(([userId, key]) => ({ userId, keypairId: key.item.id }));
    const [identified, certified] = await Promise.all([
      IdentityRecords.withIdentity(legacy.map((key) => key.userId)),
      IdentityRecords.certifiedLegacy(legacy),
    ]);
    const open = new Map(legacy.filter((key) => !identified.has(key.userId) && !certified.has(key.userId)).map((key) => [key.userId, key.keypairId]));
    const accounts = users.filter((user) => open.has(user.id)).sort((a, b) => a.id - b.id);
    return { accounts: accounts.map((user) => ({ user: toPublic(user), keypair_id: open.get(user.id)! })) };
  }

  /** A user's version 1 key: their current key when it is a valid public one (nobody seals for a temporary key or an invalidated one). */
  async function legacyKey(id: number) {
    const head = await Keypair.currentKey(id);
    return head?.valid && head.item.type === "public" ? head.item : undefined;
  }

  function toChain(bundle: NonNullable<Awaited<ReturnType<typeof IdentityRecords.bundle>>>) {
    const issuers = (bundle.issuers ?? []).map((issuer) => ({ userId: issuer.userId, records: issuer.records.map(json) }));
    return { userId: bundle.userId, records: bundle.records.map(json), issuers, admins: (bundle.admins ?? []).map(json) };
  }

  /** GET /api/identities/anchors */
  export async function anchors(actor: Actor) {
    requireMember(actor);
    const [roots, rule] = await Promise.all([IdentityRecords.roots(), IdentityRecords.legacyRule()]);
    return { roots: roots.map(json), setup_user_id: SETUP_USER_ID, legacy_rule: rule ? (JSON.parse(rule) as Record<string, unknown>) : null };
  }

  /**
   * GET /api/identities/invitation: what the actor's current temporary key is to be taken over
   * with: their signed invitation, or the key reset an administrator made for them while it has not
   * expired (a reset's temporary key is never the invitation's, which was taken over before).
   */
  export async function invitation(actor: Actor) {
    const { uid } = requireMember(actor);
    const [head, invite] = await Promise.all([Keypair.currentKey(uid), Invitation.ofUser(uid)]);
    const reset = head ? await KeyResets.of(head.item) : undefined;
    const pending = head?.item.type === "temp" && !reset && invite?.invitation !== undefined;
    return {
      invitation: pending ? (JSON.parse(invite.invitation!) as Record<string, unknown>) : null,
      reset: reset && !KeyResets.expired(reset) ? (JSON.parse(reset.reset) as Record<string, unknown>) : null,
    };
  }

  /**
   * POST /api/identities: the actor's next identity record for their current key. What it is for:
   * the setup administrator's root for the keys they had before protocol v2 (the migration). New
   * keys come with their record through POST /api/keypairs.
   */
  export async function publish(actor: Actor, body: z.input<typeof identityPublish>) {
    const { uid, user } = requireMember(actor);
    const input = valid(identityPublish, body);
    const head = await Keypair.currentKey(uid);
    if (!head?.valid || head.item.type !== "public") fail("identity_keys_mismatch", { message: "Publish an identity for a key of your own first." });
    const item = await IdentityRecords.checkNew(uid, input.identity, {
      keys: { encryptPublic: head.item.encryptPublic, signPublic: head.item.signPublic },
      contacts: [user.email, user.phone],
      invitation: null,
      reset: null,
    });
    try {
      await db().entities.identity.create(item).go();
    } catch (error) {
      if (isConditionFailure(error)) fail("identity_conflict");
      throw error;
    }
    return { user_id: uid, seq: item.seq, key_id: item.keyId };
  }

  /** POST /api/identities/{id}/admin: an administrator certifies another administrator's identity, once. */
  export async function certifyAdmin(actor: Actor, id: number, body: z.input<typeof adminCertificateBody>) {
    const admin = requireAdmin(actor);
    valid(idSchema, id);
    const input = valid(adminCertificateBody, body);
    const target = await getUser(id);
    if (!target) fail("user_not_found");
    if (!target.admin && !target.superAdmin) fail("forbidden", { message: "Only an administrator's identity is certified as one." });
    if (await IdentityRecords.certificate(id)) fail("admin_certificate_exists");
    const item = await IdentityRecords.checkCertificate(admin.uid, id, input.certificate);
    try {
      await db().entities.admincert.create(item).go();
    } catch (error) {
      if (isConditionFailure(error)) fail("admin_certificate_exists");
      throw error;
    }
    return { user_id: id, key_id: (JSON.parse(item.record) as { record: { keyId: string } }).record.keyId };
  }

  /**
   * POST /api/identities/{id}/legacy: an administrator certifies a version 1 account's current
   * key (docs/protocol.md §14.14), once per key; checked as a client will check it.
   */
  export async function certifyLegacy(actor: Actor, id: number, body: z.input<typeof adminCertificateBody>) {
    const admin = requireAdmin(actor);
    valid(idSchema, id);
    const input = valid(adminCertificateBody, body);
    if (!(await getUser(id))) fail("user_not_found");
    if ((await IdentityRecords.items(id)).length > 0) fail("legacy_has_identity");
    const key = await legacyKey(id);
    if (!key) fail("identity_keys_mismatch", { message: "This account has no key to certify." });
    if (await IdentityRecords.legacyCertificate(id, key.id)) fail("legacy_certificate_exists");
    const item = await IdentityRecords.checkLegacyCertificate(admin.uid, id, key, input.certificate);
    try {
      await db().entities.legacycert.create(item).go();
    } catch (error) {
      if (isConditionFailure(error)) fail("legacy_certificate_exists");
      throw error;
    }
    return { user_id: id, key_id: await keyId(key) };
  }

  /** POST /api/identities/legacy-rule: the setup administrator publishes the root's rule that version 1 keys need a certificate, once. */
  export async function publishLegacyRule(actor: Actor, body: z.input<typeof legacyRuleBody>) {
    const { uid } = requireMember(actor);
    const input = valid(legacyRuleBody, body);
    if (uid !== SETUP_USER_ID) fail("identity_root_forbidden", { message: "Only the instance's root publishes its rules." });
    if (await IdentityRecords.legacyRule()) fail("legacy_rule_exists");
    const { text, anchor } = await IdentityRecords.checkLegacyRule(input.rule);
    try {
      await db().entities.legacyrule.create({ rule: "certified-only", record: text }).go();
    } catch (error) {
      if (isConditionFailure(error)) fail("legacy_rule_exists");
      throw error;
    }
    return { anchor };
  }

  /** GET /api/identities/pins: the actor's encrypted pins (the server cannot open them) and their revision. */
  export async function pins(actor: Actor) {
    const { uid } = requireMember(actor);
    const { data } = await db().entities.accountdata.get({ userId: uid, kind: "pins" }).go();
    return { data: data?.data ?? null, rev: data?.rev ?? 0 };
  }

  /** PUT /api/identities/pins: saves them over revision `rev` (0: the first save); another save in between is pins_conflict. */
  export async function savePins(actor: Actor, body: z.input<typeof accountDataSave>) {
    const { uid } = requireMember(actor);
    const input = valid(accountDataSave, body);
    try {
      parseEnvelope(input.data, "aead");
    } catch (error) {
      if (isCryptoError(error)) fail("pins_invalid");
      throw error;
    }
    const rev = input.rev + 1;
    try {
      if (input.rev === 0) await db().entities.accountdata.create({ userId: uid, kind: "pins", data: input.data, rev }).go();
      else {
        await db()
          .entities.accountdata.patch({ userId: uid, kind: "pins" })
          .set({ data: input.data, rev })
          .where((attr, op) => op.eq(attr.rev, input.rev))
          .go();
      }
    } catch (error) {
      if (isConditionFailure(error)) fail("pins_conflict");
      throw error;
    }
    return { rev };
  }
}
