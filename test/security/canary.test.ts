import { createHash, randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import {
  type AccountKeys,
  base64urlDecode,
  base64urlEncode,
  encrypt,
  exportFileKey,
  exportSymmetricKey,
  generateRecordId,
  generateSymmetricKey,
  sealComment,
  sealCommentForPage,
  sealMoteForPage,
  generatePageKey,
  sealFor,
  sealMote,
  serializeEnvelope,
  utf8Encode,
  sealMessage,
  serializeFileStreamHeader,
  unwrapAccountKeys,
  unwrapPickupKey,
} from "@sealwork/crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newVisitor } from "../support/browser";
import { http, outboxFor } from "../support/api";
import { uploadFile } from "../support/attachments";
import { encryptedMessage, shareGroup, standInKey, startConversation } from "../support/conversations";
import { createGroup } from "../support/groups";
import { invite } from "../support/invites";
import { collect, createPickup } from "../support/pickups";
import { enableTotp } from "../support/totp";
import { createSession, createUser } from "../support/users";
import { passKeyPopup, signIn } from "../e2e/helpers";

/**
 * Nothing in the clear on the server (ARCHITECTURE §1): accounts whose login password and secure
 * code are unique canary strings create their keys in the browser, recover them in a second
 * browser and export them. Then every item of the table, every object of the bucket, every
 * message of the outbox and every file under the runtime's data folder is searched for the
 * codes and for the private key seeds (taken from the users' own envelopes, opened here with the
 * codes), for an invitation's code and temporary private keys, for two-factor recovery codes,
 * for a conversation's title, message text, file name, file contents and thumbnail, for a message
 * of a group's conversation page written in the browser (the group and its keys made there too), the names and
 * tags of a drive and a folder made on its drive page and a file uploaded there (name and bytes), a
 * card made in the card editor on a pinboard with a file attached (title, content, file name and bytes), and for a
 * group's epoch keys (wrapped, linked, committed to and logged through the group key routes), and for
 * a card (mote) of a page and a comment on it (every field of the editor payload), and for a restricted page's key
 * and a card and comment sealed under it, in every encoding that could carry them: UTF-8, hex, base64 and base64url at each of
 * the three byte alignments.
 */
const CANARIES = 2;

interface Needle {
  label: string;
  /** Text forms, searched in text (items, objects, messages) and as bytes in files. */
  texts: string[];
  /** Raw bytes, searched in files. */
  bytes: Buffer;
  /** Short digit strings (a pickup's security code): only where no digit stands beside them, so ids and timestamps do not match by chance. */
  digits?: boolean;
}

function contains(haystack: string, form: string, digits?: boolean): boolean {
  return digits ? new RegExp(`(?<![0-9])${form.replace(/[^A-Za-z0-9]/g, "\\$&")}(?![0-9])`).test(haystack) : haystack.includes(form);
}

/** The base64 and base64url characters that depend on `bytes` alone, at each alignment. */
function encodings(bytes: Buffer): string[] {
  const forms = new Set([bytes.toString("hex"), bytes.toString("hex").toUpperCase()]);
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const first = Math.ceil((8 * shift) / 6);
    const last = Math.floor((8 * (shift + bytes.length)) / 6);
    for (const encoding of ["base64", "base64url"] as const) forms.add(padded.toString(encoding).slice(first, last));
  }
  return [...forms];
}

/**
 * A stored file's bytes, or null for one that went between listing and reading: SQLite's
 * rollback journal (`*.db-journal`) lives only while DynamoDB Local writes, and what it held is
 * in the database file that the search reads too.
 */
async function readStored(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function needle(label: string, bytes: Buffer, asText?: string, digits?: boolean): Needle {
  return { label, bytes, texts: [...(asText ? [asText] : []), ...encodings(bytes)], digits };
}

async function privateSeeds(keys: AccountKeys): Promise<Buffer[]> {
  const seeds: Buffer[] = [];
  for (const pair of [keys.encrypt, keys.sign]) {
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    seeds.push(Buffer.from(jwk.d!, "base64url"));
  }
  return seeds;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("plaintext canary: the server stores no secure code and no private key", () => {
  const runtime = inject("runtime");
  let browser: Browser;
  const needles: Needle[] = [];
  /** Searched in the table only: the pickup code is in the emailed link (outbox, queue) by design. */
  const tableNeedles: Needle[] = [];
  const publicKeys: string[] = [];
  const canaries: { email: string; password: string; code: string }[] = [];
  /** A card's record id: stored in the clear by design, so the table scan must find it. */
  let moteRecordId = "";

  beforeAll(async () => {
    browser = await launchBrowser();
    for (let i = 0; i < CANARIES; i++) {
      const tag = randomBytes(6).toString("hex");
      const code = `canary-code-${tag}-9`;
      const password = `canary-password-${tag}-7`;
      // The first is a super administrator: she makes a group in her browser below.
      const user = await createUser({ name: `Canary ${i}`, password, admin: i === 0, superAdmin: i === 0 });
      canaries.push({ email: user.email, password, code });
      needles.push(needle(`secure code ${i}`, Buffer.from(code), code), needle(`password ${i}`, Buffer.from(password), password));

      // Keys made in one browser, recovered from the backup in another, exported from settings.
      const first = await newVisitor(browser);
      await signIn(first.page, user.email, password, code);
      await first.page.getByRole("heading", { name: `Hello, Canary ${i}!` }).waitFor();
      const second = await newVisitor(browser);
      await signIn(second.page, user.email, password, code);
      await second.page.goto("/settings/");
      await passKeyPopup(second.page, code);
      const [download] = await Promise.all([second.page.waitForEvent("download"), second.page.getByRole("button", { name: "Export encrypted backup key" }).click()]);
      const envelope = JSON.parse(await readFile(await download.path(), "utf8")) as { encryptPublic: string };
      publicKeys.push(envelope.encryptPublic);
      const [x25519, ed25519] = await privateSeeds(await unwrapAccountKeys(envelope as never, code));
      needles.push(needle(`X25519 private key ${i}`, x25519!), needle(`Ed25519 private key ${i}`, ed25519!));
      await first.context.close();
      await second.context.close();
    }

    // A group made in the first canary's browser (its log, key, record and wraps made there) with
    // the second, and a message on the group's conversation page, sealed and signed there.
    const groupText = `canary-spa-group-message-${randomBytes(6).toString("hex")}`;
    const driveName = `canary-spa-drive-${randomBytes(6).toString("hex")}`;
    const folderName = `canary-spa-folder-${randomBytes(6).toString("hex")}`;
    const folderTag = `canary-spa-tag-${randomBytes(6).toString("hex")}`;
    const driveFileName = `canary-spa-file-${randomBytes(6).toString("hex")}.txt`;
    const driveFileBytes = Buffer.from(`canary-spa-file-bytes-${randomBytes(12).toString("hex")} `.repeat(40));
    const cardTitle = `canary-spa-card-${randomBytes(6).toString("hex")}`;
    const cardContent = `canary-spa-card-content-${randomBytes(6).toString("hex")}`;
    const cardFileName = `canary-spa-card-file-${randomBytes(6).toString("hex")}.txt`;
    const cardFileBytes = Buffer.from(`canary-spa-card-bytes-${randomBytes(12).toString("hex")} `.repeat(40));
    {
      const { page, context } = await newVisitor(browser);
      await signIn(page, canaries[0]!.email, canaries[0]!.password, canaries[0]!.code);
      await page.getByRole("heading", { name: "Hello, Canary 0!" }).waitFor();
      await page.getByRole("button", { name: "Create" }).click();
      await page.getByRole("menuitem", { name: "New group" }).click();
      await page.getByLabel("Name").fill("Canary browser group");
      await page.getByRole("textbox", { name: "Search people" }).fill("Canary 1");
      await page.getByRole("listitem").filter({ hasText: "Canary 1" }).first().click();
      await page.getByRole("button", { name: "Create group" }).click();
      await page.waitForURL(/\/group\/\d+\/page\/members$/, { timeout: 60_000 });
      await page.getByRole("navigation", { name: "Main menu" }).getByRole("region", { name: "Pages of Canary browser group" }).getByRole("link", { name: "Conversation" }).click();
      await page.getByRole("textbox", { name: "Message" }).fill(groupText);
      await page.getByRole("textbox", { name: "Message" }).press("Enter");
      await page.locator('[data-status="sent"]').filter({ hasText: groupText }).waitFor({ timeout: 30_000 });
      // The group's drive: a drive and a folder named and tagged there.
      await page.getByRole("navigation", { name: "Main menu" }).getByRole("region", { name: "Pages of Canary browser group" }).getByRole("link", { name: "Drive" }).click();
      await page.getByRole("button", { name: "Click to start storing files..." }).click();
      await page.getByRole("dialog").getByLabel("Name").fill(driveName);
      await page.getByRole("dialog").getByLabel("Name").press("Enter");
      await page.locator(`[data-drive-item="${driveName}"]`).click();
      await page.getByRole("button", { name: "Create folder" }).click();
      await page.getByRole("dialog").getByLabel("Name").fill(folderName);
      await page.getByRole("dialog").getByLabel("Tags").fill(folderTag);
      await page.getByRole("dialog").getByLabel("Name").press("Enter");
      await page.locator(`[data-drive-item="${folderName}"]`).waitFor({ timeout: 30_000 });
      await page.locator(`[data-drive-item="${folderName}"]`).click();
      await page.locator("[data-upload-input]").first().setInputFiles({ name: driveFileName, mimeType: "text/plain", buffer: driveFileBytes });
      await page.locator(`[data-drive-item="${driveFileName}"]`).waitFor({ timeout: 30_000 });
      // A pinboard page and a card on it, with a file attached, made in the card editor.
      await page.getByRole("navigation", { name: "Main menu" }).getByRole("region", { name: "Pages of Canary browser group" }).getByRole("link", { name: "(new)" }).click();
      await page.getByLabel("Page name").fill("Canary board");
      await page.getByRole("radio", { name: "Pinboard" }).check();
      await page.getByLabel("Page name").press("Enter");
      await page.getByText("Nothing is pinned here yet.").waitFor({ timeout: 30_000 });
      await page.getByRole("button", { name: "Add", exact: true }).click();
      const cardEditor = page.getByRole("dialog");
      await cardEditor.getByLabel("Choose a file to attach").setInputFiles({ name: cardFileName, mimeType: "text/plain", buffer: cardFileBytes });
      await cardEditor.locator('[data-upload-state="success"]').waitFor({ timeout: 30_000 });
      await cardEditor.getByLabel("Title").fill(cardTitle);
      await cardEditor.getByLabel("Content").fill(cardContent);
      await cardEditor.getByRole("button", { name: "Save" }).click();
      await page.getByRole("listitem").filter({ hasText: cardTitle }).waitFor({ timeout: 30_000 });
      await context.close();
    }
    needles.push(needle("group conversation message written in the browser", Buffer.from(groupText), groupText));
    needles.push(needle("drive name written in the browser", Buffer.from(driveName), driveName));
    needles.push(needle("folder name written in the browser", Buffer.from(folderName), folderName));
    needles.push(needle("folder tag written in the browser", Buffer.from(folderTag), folderTag));
    needles.push(needle("drive file name chosen in the browser", Buffer.from(driveFileName), driveFileName));
    needles.push(needle("drive file bytes uploaded from the browser", driveFileBytes.subarray(0, 64)));
    needles.push(needle("card title written in the card editor", Buffer.from(cardTitle), cardTitle));
    needles.push(needle("card content written in the card editor", Buffer.from(cardContent), cardContent));
    needles.push(needle("card file name chosen in the card editor", Buffer.from(cardFileName), cardFileName));
    needles.push(needle("card file bytes uploaded from the card editor", cardFileBytes.subarray(0, 64)));

    // An invitation: its code goes from the administrator to the invitee by another channel,
    // and the invitee's temporary private keys travel only inside the code-wrapped transit.
    const admin = await createSession({ admin: true });
    const invited = await invite(admin.api_token);
    needles.push(needle("invitation code", Buffer.from(invited.code), invited.code));
    const [tempX25519, tempEd25519] = await privateSeeds(invited.keys);
    needles.push(needle("invitee's temporary X25519 private key", tempX25519!), needle("invitee's temporary Ed25519 private key", tempEd25519!));
    await outboxFor(invited.body.email);

    // A conversation as the web client makes it: the title, a message text, an attached file's
    // name and its contents are encrypted in the client; the file goes to the bucket in chunks.
    const [ann, ben] = await Promise.all([createSession({ name: "Canary Ann" }), createSession({ name: "Canary Ben" })]);
    await shareGroup(ann, ben);
    const convo = randomBytes(6).toString("hex");
    const title = `canary-title-${convo}`;
    const text = `canary-message-${convo}`;
    const fileName = `canary-file-name-${convo}.pdf`;
    const fileContent = `canary-file-content-${convo}`;
    const { id, key } = await startConversation(ann, [ben], { title });
    const file = await uploadFile(ann, id, Buffer.from(fileContent.repeat(20_000)), Buffer.from(`canary-thumbnail-${convo}`));
    const ref = { id: file.id, name: fileName, type: "application/pdf", size: fileContent.length * 20_000, key: base64urlEncode(await exportFileKey(file.stream)), header: serializeFileStreamHeader(file.stream.header), thumb: true };
    const payload = await sealMessage(key, { conversationId: id, senderId: ann.id, localid: "canary" }, { text, files: [ref] });
    const sent = await http("POST", `/api/conversations/${id}/append`, { token: ann.api_token, body: { localid: "canary", payload, attachments: [file.id] } });
    expect(sent.status).toBe(200);
    for (const [label, value] of [["conversation title", title], ["message text", text], ["file name", fileName], ["file contents", fileContent], ["thumbnail", `canary-thumbnail-${convo}`]]) {
      needles.push(needle(label!, Buffer.from(value!), value));
    }

    // A group's keys as a client hands them to the server (the group routes store them opaque):
    // epoch 0 and 1 keys wrapped for each member, the link that carries epoch 0 under epoch 1,
    // signed-record stand-ins with a commitment to each key, and the log entries. Neither key
    // may be found anywhere.
    const group = await createGroup([ann, ben], { name: "Canary group" });
    const epochKeys = [await generateSymmetricKey(), await generateSymmetricKey()];
    const raw = await Promise.all(epochKeys.map(async (k) => Buffer.from(await exportSymmetricKey(k))));
    const commitment = (bytes: Buffer) => createHash("sha256").update("group-key-commitment").update(bytes).digest("base64url");
    const wrapFor = async (epoch: number, uid: number) => ({ v: 2, sealer: ann.id, sealed: serializeEnvelope(await sealFor(await standInKey(), raw[epoch]!, { context: `group-key:${group.id}:${epoch}` })), uid });
    const groupCreator = group.by;
    const log = (body: unknown) => http("POST", `/api/groups/${group.id}/log`, { token: groupCreator.api_token, body });
    expect((await log({ head: -1, entries: [{ action: "create", commitment: commitment(raw[0]!) }], record: { epoch: 0, commitment: commitment(raw[0]!) } })).status).toBe(200);
    const wraps = (epoch: number) => Promise.all([ann, ben].map(async (m) => ({ user_id: m.id, wrap: await wrapFor(epoch, m.id) })));
    expect((await http("POST", `/api/groups/${group.id}/wraps`, { token: groupCreator.api_token, body: { epoch: 0, wraps: await wraps(0) } })).status).toBe(200);
    const link = serializeEnvelope(await encrypt(epochKeys[1]!, raw[0]!, { aad: utf8Encode(`group-link:${group.id}:1`) }));
    expect((await log({ head: 0, entries: [{ action: "rekey", commitment: commitment(raw[1]!) }], rekey: { epoch: 1, link }, record: { epoch: 1, commitment: commitment(raw[1]!) } })).status).toBe(200);
    expect((await http("POST", `/api/groups/${group.id}/wraps`, { token: groupCreator.api_token, body: { epoch: 1, wraps: await wraps(1) } })).status).toBe(200);
    raw.forEach((bytes, epoch) => needles.push(needle(`group key of epoch ${epoch}`, bytes)));
    // A message of the group's conversation, sealed under epoch 1.
    const apiGroupText = `canary-group-message-${convo}`;
    const groupMessage = serializeEnvelope(await encrypt(epochKeys[1]!, utf8Encode(apiGroupText), { aad: utf8Encode(`group-message:${group.id}:1`) }));
    const signature = serializeEnvelope({ v: 1, kind: "record-signature", alg: "ed25519", sig: base64urlEncode(new Uint8Array(64)) } as never);
    const posted = await http("POST", `/api/groups/${group.id}/conversation/append`, { token: ann.api_token, body: { localid: "canary", payload: groupMessage, epoch: 1, signature, sender_key_id: "A".repeat(22) } });
    expect(posted.status).toBe(200);
    needles.push(needle("group conversation message", Buffer.from(apiGroupText), apiGroupText));
    // A card (mote) on a page of the group and a comment on it, sealed under epoch 1 as the SPA
    // seals them (records.ts): every field of the editor payload, a custom field, the comment's text.
    const board = await http<{ id: number }>("POST", "/api/pages", { token: groupCreator.api_token, body: { group: group.id, name: "Canary board", type: "pinboard" } });
    expect(board.status).toBe(200);
    const moteText = (field: string) => `canary-mote-${field}-${convo}`;
    const motePayload = {
      title: moteText("title"),
      content: moteText("content"),
      _html: `<p>${moteText("html")}</p>`,
      tags: [moteText("tag")],
      event_start: "2027-03-01T09:00",
      event_end: "2027-03-01T10:00",
      cf_secret: { note: moteText("custom") },
    };
    const moteRecord = generateRecordId();
    moteRecordId = moteRecord;
    const sealedMote = await sealMote(epochKeys[1]!, { groupId: group.id, recordId: moteRecord, epoch: 1 }, motePayload);
    const card = await http<{ mote: { id: number } }>("POST", "/api/motes", { token: ann.api_token, body: { group_id: group.id, page_id: board.body.id, record_id: moteRecord, ...sealedMote } });
    expect(card.status).toBe(200);
    const commentRecord = generateRecordId();
    const commentText = `canary-comment-${convo}`;
    const sealedComment = await sealComment(epochKeys[1]!, { groupId: group.id, recordId: commentRecord, epoch: 1 }, { text: commentText });
    expect((await http("POST", `/api/motes/${card.body.mote.id}/comment`, { token: ben.api_token, body: { record_id: commentRecord, ...sealedComment } })).status).toBe(200);
    for (const value of [...["title", "content", "html", "tag", "custom"].map(moteText), commentText]) needles.push(needle(`mote content "${value}"`, Buffer.from(value), value));
    // A restricted page (docs/protocol.md, "Restricted pages"): its key sealed for each reader as
    // the administrator's browser seals it (stand-in copies sealed for a stand-in key, as the epoch
    // keys' wraps above), a card and a comment under it: neither the page key nor a field is found.
    const restricted = await http<{ id: number }>("POST", "/api/pages", { token: groupCreator.api_token, body: { group: group.id, name: "Canary HR", type: "pinboard" } });
    expect((await http("POST", `/api/pages/${restricted.body.id}/permit`, { token: groupCreator.api_token, body: { use: [{ role: false, id: ann.id }] } })).status).toBe(200);
    const pageKey = await generatePageKey();
    const rawPageKey = Buffer.from(await exportSymmetricKey(pageKey));
    const pageCopy = async (uid: number) => ({
      user_id: uid,
      copy: { sealed: serializeEnvelope(await sealFor(await standInKey(), rawPageKey, { context: `pagekey:${group.id}:${restricted.body.id}:1` })), signature: "sig", sealer: groupCreator.id, sealerKeyId: "key-1", linkDigest: null },
    });
    const pageCopies = await Promise.all([ann.id, groupCreator.id].map(pageCopy));
    expect((await http("POST", `/api/pages/${restricted.body.id}/keys`, { token: groupCreator.api_token, body: { generation: 1, copies: pageCopies } })).status).toBe(200);
    needles.push(needle("page key of a restricted page", rawPageKey));
    const hidden = (field: string) => `canary-page-${field}-${convo}`;
    const hiddenRecord = generateRecordId();
    const { generation, ...underPage } = await sealMoteForPage(pageKey, { groupId: group.id, recordId: hiddenRecord, pageId: restricted.body.id, generation: 1 }, { title: hidden("title"), content: hidden("content"), tags: [hidden("tag")] });
    const hiddenCard = await http<{ mote: { id: number } }>("POST", "/api/motes", { token: ann.api_token, body: { group_id: group.id, page_id: restricted.body.id, record_id: hiddenRecord, ...underPage, epoch: 1, page_key: generation } });
    expect(hiddenCard.status).toBe(200);
    const hiddenComment = generateRecordId();
    const { generation: g, ...commentUnderPage } = await sealCommentForPage(pageKey, { groupId: group.id, recordId: hiddenComment, pageId: restricted.body.id, generation: 1 }, { text: hidden("comment") });
    expect((await http("POST", `/api/motes/${hiddenCard.body.mote.id}/comment`, { token: ann.api_token, body: { record_id: hiddenComment, ...commentUnderPage, epoch: 1, page_key: g } })).status).toBe(200);
    for (const value of ["title", "content", "tag", "comment"].map(hidden)) needles.push(needle(`restricted page's content "${value}"`, Buffer.from(value), value));

    // Two-factor recovery codes are shown once and kept only as salted hashes. (The TOTP secret
    // itself must stay readable to the server, so it is no canary.)
    const twoFactor = await createSession();
    const { recovery } = await enableTotp(twoFactor.api_token);
    recovery.forEach((code, i) => needles.push(needle(`2FA recovery code ${i}`, Buffer.from(code), code)));

    // A pickup: its title, both sides' messages, the security code and the guest's auth key (the
    // server keeps only SHA-256 of it) stay off the server; the pickup code stays out of the table.
    const tag = randomBytes(6).toString("hex");
    const creator = await createSession();
    const pickup = await createPickup(creator, { title: `canary-pickup-title-${tag}` });
    const toGuest = `canary-pickup-message-${tag}`;
    await http("POST", `/api/conversations/${pickup.conversation_id}/append`, { token: creator.api_token, body: { localid: "c1", payload: await encryptedMessage(pickup.key, pickup.conversation_id, creator.id, "c1", toGuest) } });
    const { recover, keys } = await collect(pickup);
    const guestKey = await unwrapPickupKey(keys!, recover.body.wrapped);
    const fromGuest = `canary-pickup-answer-${tag}`;
    const answer = await encryptedMessage(guestKey, pickup.conversation_id, 0, "g1", fromGuest);
    expect((await http("POST", `/api/conversations/${pickup.conversation_id}/append`, { token: recover.body.api_token, body: { localid: "g1", payload: answer } })).status).toBe(200);
    await outboxFor(pickup.email);
    for (const value of [`canary-pickup-title-${tag}`, toGuest, fromGuest]) needles.push(needle(`pickup content "${value}"`, Buffer.from(value), value));
    needles.push(needle("pickup security code", Buffer.from(pickup.securityCode), pickup.securityCode, true));
    needles.push(needle("pickup auth key", Buffer.from(base64urlDecode(keys!.auth))));
    tableNeedles.push(needle("pickup code", Buffer.from(pickup.code), pickup.code));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  function findIn(text: string, where: string): string[] {
    const found: string[] = [];
    for (const n of needles) for (const form of n.texts) if (contains(text, form, n.digits)) found.push(`${n.label} (as ${form.slice(0, 12)}…) in ${where}`);
    return found;
  }

  it("finds none in the table, and does find what is meant to be there (the public keys)", async () => {
    const dynamo = new DynamoDBClient({ region: "eu-central-2", endpoint: runtime.env.DYNAMODB_ENDPOINT, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    const items: string[] = [];
    let start: Record<string, never> | undefined;
    do {
      const page = await dynamo.send(new ScanCommand({ TableName: runtime.env.TABLE_NAME, ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) {
        items.push(JSON.stringify(item, (_key, value: unknown) => (value instanceof Uint8Array ? [Buffer.from(value).toString("base64"), Buffer.from(value).toString("latin1")] : value)));
      }
      start = page.LastEvaluatedKey as typeof start;
    } while (start);
    const all = items.join("\n");
    for (const key of publicKeys) expect(all, "the scan reads the keypair items").toContain(key);
    expect(all).toContain("secure-code-wrap");
    expect(items.flatMap((item, i) => findIn(item, `item ${i}`))).toEqual([]);
    for (const n of tableNeedles) for (const form of n.texts) expect(all.includes(form), `${n.label} in the table`).toBe(false);
    expect(all, "the scan reads the pickup items").toContain("pickup-wrap");
    expect(all, "the scan reads the motes").toContain(moteRecordId);
  });

  it("finds none in the bucket or the outbox", async () => {
    const s3 = new S3Client({ region: "eu-central-2", endpoint: runtime.env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    const found: string[] = [];
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: runtime.env.BUCKET_NAME, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        // The runtime is shared: another test may delete an object between the listing and its read (nothing is stored then).
        const read = await s3.send(new GetObjectCommand({ Bucket: runtime.env.BUCKET_NAME, Key: object.Key })).catch((error: unknown) => {
          if (error instanceof Error && error.name === "NoSuchKey") return null;
          throw error;
        });
        if (!read) continue;
        keys.push(object.Key!);
        const body = await read.Body!.transformToByteArray();
        found.push(...findIn(Buffer.from(body).toString("latin1"), `object ${object.Key}`));
        for (const n of needles) if (!n.digits && Buffer.from(body).includes(n.bytes)) found.push(`${n.label} (raw) in object ${object.Key}`);
      }
      token = page.NextContinuationToken;
    } while (token);

    for (const file of await filesUnder(runtime.env.OUTBOX_DIR!).catch(() => [])) found.push(...findIn(await readFile(file, "utf8"), file));
    expect(found).toEqual([]);
    expect(keys.some((key) => key.startsWith("attachments/")), "the scan reads conversation attachments").toBe(true);
    expect(keys.some((key) => key.startsWith("drive/")), "the scan reads drive files").toBe(true);
    expect(keys.some((key) => key.startsWith("cards/")), "the scan reads cards' files").toBe(true);
  });

  it("finds none in any file of the runtime's data folder (DynamoDB Local's database, s3rver, the queue, the outbox)", async () => {
    const found: string[] = [];
    const files = await filesUnder(runtime.dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = await readStored(file);
      if (!bytes) continue;
      const latin1 = bytes.toString("latin1");
      for (const n of needles) {
        if (!n.digits && bytes.includes(n.bytes)) found.push(`${n.label} (raw) in ${file}`);
        for (const form of n.texts) if (contains(latin1, form, n.digits)) found.push(`${n.label} (as ${form.slice(0, 12)}…) in ${file}`);
      }
    }
    // The search reads the stored data: the public keys (meant to be there) are found.
    const all = await Promise.all(files.map((file) => readStored(file)));
    for (const key of publicKeys) expect(all.some((bytes) => bytes?.includes(Buffer.from(key)))).toBe(true);
    expect(found).toEqual([]);
  });
});
