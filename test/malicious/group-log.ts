import {
  type GroupRecord,
  type SignedGroup,
  type SignedMembershipEntry,
  type SignedSealedKey,
  appendToLog,
  createGroupRecord,
  entryHash,
  membershipContainer,
  membershipFingerprint,
  openGroupKey,
  verifyLog,
} from "@sealwork/crypto";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { http } from "../support/api";
import { shareGroup } from "../support/conversations";
import { ADMIN } from "../support/global-setup";
import { type Member, invitedMember, rootAdmin } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { gotoApp, signIn } from "../e2e/helpers";
import type { MaliciousSuite, Run } from "./harness";
import { groupKeyReady, keysOfMembers, noTrustWarning, signInAs, trustWarning } from "./scenes";

/**
 * A group's membership log (docs/protocol.md §8, "Group keys with epochs", step 1 of what a client
 * checks; §14.7) against a server that shows a member an older log, or another history the same
 * admin signed, than the one the member's browser verified and remembered (in the encrypted pins,
 * key `g<groupId>`). The conversations' cases are in distribution.ts; the check is the same
 * ("log-head"), here in groups/keys/group-ring.ts.
 */

interface LogAnswer {
  entries: { seq: number; entry: SignedMembershipEntry }[];
  head: number;
  epoch: number;
  needs_rekey: boolean;
  epochs: { epoch: number; record: SignedGroup | null; link: string | null }[];
}
interface MembersAnswer {
  members: { id: number }[];
}

/** The log as the SPA asks for it (the current epoch's record only). */
const logOf = async (member: Member, group: number) => (await http<LogAnswer>("GET", `/api/groups/${group}/log?epochs=current`, { token: member.session.api_token })).body;
const entriesOf = (answer: LogAnswer) => answer.entries.map((e) => e.entry);

/** The membership fingerprint a members page shows for the head of `answer`'s log. */
async function fingerprintOf(group: number, answer: LogAnswer): Promise<string> {
  const last = answer.entries.at(-1)!;
  return membershipFingerprint({ container: membershipContainer("group", group), head: { seq: last.seq, hash: await entryHash(last.entry) } });
}

/** The fingerprint shown as verified on a members page. */
const fingerprintShown = (page: Page, value: string) => page.locator(`[data-membership-fingerprint="${value}"]`);

/** The server's list of members on the members page, changed by `change`. */
function listing(change: (members: MembersAnswer["members"]) => MembersAnswer["members"]) {
  return (answer: MembersAnswer) => ({ ...answer, members: change(answer.members) });
}

/**
 * The setup administrator (the instance's root, whose keys the test holds) makes a group with
 * Alice; its browser makes the group's keys (log: create, add Alice). Then it adds Carol in its
 * browser (an `add` and the record for the new head). Alice opens the members page afterwards: her
 * browser verifies the log with Carol and remembers its head. Answers the log as it was before
 * Carol (`before`) and Dan, who is in none of it.
 */
async function carolAddedToGroup(run: Run) {
  const root = await rootAdmin();
  const [alice, carol, dan] = [await invitedMember(root), await invitedMember(root), await invitedMember(root)];
  const tag = Math.random().toString(36).slice(2, 7);
  // Invited people are all "Invited Person": a name of her own, for the person selector.
  expect((await http("PATCH", `/api/users/${carol.session.id}`, { token: carol.session.api_token, body: { name: `Carol ${tag}` } })).status).toBe(200);
  const group = await shareGroup(alice.session);
  const admin = await run.visitor();
  await signIn(admin, ADMIN.email, ADMIN.password);
  await gotoApp(admin, `/group/${group}/page/members`);
  await groupKeyReady(admin, 0).waitFor({ timeout: 60_000 });
  await expect.poll(async () => (await logOf(alice, group)).epochs[0]?.record?.record.logHead.seq, { timeout: 30_000 }).toBe(1);
  const before = await logOf(alice, group);

  await admin.getByRole("button", { name: "Add member" }).click();
  const dialog = admin.getByRole("dialog", { name: "Add member" });
  await dialog.getByRole("textbox", { name: "Search people" }).fill(`Carol ${tag}`);
  await dialog.getByRole("listitem").filter({ hasText: `Carol ${tag}` }).first().click();
  await dialog.waitFor({ state: "detached", timeout: 30_000 });
  // The record for the new head follows the add.
  await expect.poll(async () => (await logOf(alice, group)).epochs[0]?.record?.record.logHead.seq, { timeout: 30_000 }).toBe(2);
  await admin.close();
  const withCarol = await logOf(alice, group);

  const page = await run.visitor();
  await signInAs(page, alice);
  await gotoApp(page, `/group/${group}/page/members`, TEST_CODE);
  await fingerprintShown(page, await fingerprintOf(group, withCarol)).waitFor({ timeout: 60_000 });
  return { root, alice, carol, dan, group, page, before, withCarol };
}

/**
 * Another history the administrator's keys signed: `before` with Dan added where the administrator
 * went on with Carol (a change from another of its browsers that lost the race, which a lying
 * server kept to show to whom it likes), with the group record it would sign for that head. Epoch
 * 0's key and copies stay as they are.
 */
async function withDanAdded(group: number, before: LogAnswer, root: Member, alice: Member, dan: Member): Promise<LogAnswer> {
  const container = membershipContainer("group", group);
  const keysOf = await keysOfMembers([root, alice, dan]);
  const log = await verifyLog(container, entriesOf(before), keysOf);
  const added = await appendToLog(log, { action: "add", subject: { userId: dan.session.id, keyId: dan.me.keyId }, at: Date.now() }, root.me);
  const forkLog = await verifyLog(container, [...entriesOf(before), added], keysOf);
  const wraps = (await http<{ wraps: { epoch: number; wrap: SignedSealedKey }[] }>("GET", `/api/groups/${group}/wraps`, { token: root.session.api_token })).body.wraps;
  const record = before.epochs[0]!.record!.record as GroupRecord;
  const key = await openGroupKey(wraps.find((w) => w.epoch === 0)!.wrap, record, log, root.me, keysOf, { extractable: true });
  const signed = await createGroupRecord(key, forkLog.members, forkLog, root.me);
  return { ...before, head: forkLog.head.seq, entries: [...before.entries, { seq: forkLog.head.seq, entry: added }], epochs: [{ epoch: 0, record: signed, link: null }] };
}

/** What a refused group shows on its members page: the warning, and no verified key or fingerprint. */
async function blocked(page: Page, text: string) {
  const warning = trustWarning(page, "log_fork");
  await warning.waitFor({ timeout: 30_000 });
  expect(await warning.textContent()).toContain("This group is blocked");
  expect(await warning.textContent()).toContain(text);
  expect(await page.locator('[data-group-key="ready"]').count()).toBe(0);
  expect(await page.locator("[data-membership-fingerprint]").count()).toBe(0);
}

/** What a group whose log was taken shows: its key ready, the fingerprint of the log served, no warning. */
async function taken(page: Page, fingerprint: string) {
  await groupKeyReady(page, 0).waitFor({ timeout: 30_000 });
  await fingerprintShown(page, fingerprint).waitFor({ timeout: 30_000 });
  await noTrustWarning(page);
}

export function groupLogAttacks(suite: MaliciousSuite): void {
  suite.attack("a rollback of a group's membership log: Alice, who verified the log with Carol added, is shown the log as it was before", {
    check: "log-head",
    timeout: 300_000,
    async mount(run) {
      const { carol, group, page, before } = await carolAddedToGroup(run);
      const lie = run.proxy.lie("GET", `/api/groups/${group}/log`, () => before);
      run.proxy.lie("GET", `/api/groups/${group}/members`, listing((members) => members.filter((m) => m.id !== carol.session.id)));
      await gotoApp(page, `/group/${group}/page/members`, TEST_CODE);
      return { page, lie, older: await fingerprintOf(group, before) };
    },
    async refused({ page, lie }) {
      await blocked(page, "or an older one");
      expect(lie.hits).toBeGreaterThan(0);
    },
    async works({ page, lie, older }) {
      // Without the remembered head, the older log is verified: its members' fingerprint, without Carol.
      await taken(page, older);
      expect(lie.hits).toBeGreaterThan(0);
    },
  });

  suite.attack("a fork of a group's membership log: Alice, who verified the log with Carol added, is shown a history the same admin signed with Dan added instead", {
    check: "log-head",
    timeout: 300_000,
    async mount(run) {
      const { root, alice, carol, dan, group, page, before, withCarol } = await carolAddedToGroup(run);
      const fork = await withDanAdded(group, before, root, alice, dan);
      const lie = run.proxy.lie("GET", `/api/groups/${group}/log`, () => fork);
      run.proxy.lie("GET", `/api/groups/${group}/members`, listing((members) => members.map((m) => (m.id === carol.session.id ? { ...m, id: dan.session.id } : m))));
      await gotoApp(page, `/group/${group}/page/members`, TEST_CODE);
      return { page, lie, forked: await fingerprintOf(group, fork), verified: await fingerprintOf(group, withCarol) };
    },
    async refused({ page, lie }) {
      await blocked(page, "not the one this browser verified before");
      expect(lie.hits).toBeGreaterThan(0);
    },
    async works({ page, lie, forked, verified }) {
      // Without the remembered head, the other history is verified: Dan in, Carol out, another fingerprint.
      expect(forked).not.toBe(verified);
      await taken(page, forked);
      expect(lie.hits).toBeGreaterThan(0);
    },
  });
}
