import { describe, it } from "vitest";
import { containerAttacks } from "./conversations";
import { maliciousSuite } from "./harness";
import { keyAttacks } from "./keys";
import { pickupAttacks } from "./pickups";
import { secureCodeAttacks } from "./secure-code";

/**
 * The malicious-server suite (issue 11, "Must show"; docs/protocol.md §14.11): a proxy between
 * Chromium and the local runtime lies in the server's place (test/support/malicious-proxy.ts),
 * and each attack runs twice (test/malicious/harness.ts): against the SPA as shipped, which must
 * refuse it with a clear message and send, seal or compute nothing it should not; and against the
 * test build with that one check switched off, where the attack must work, so that these tests
 * can fail.
 *
 * Covered (the client check in brackets, web/build-settings.ts TEST_CHECK_NAMES):
 * - a substituted public key: the server's own key for a contact, self-signed on a root of its own
 *   [identity-anchors] (keys.ts);
 * - an old key record: an older, validly signed identity record than one the client has seen
 *   [pin-seq] (keys.ts);
 * - key and title swapped between conversations [container-binding] (conversations.ts);
 * - downgraded pickup parameters: Argon2id at 1 MiB and 1 pass [pickup-floor] (pickups.ts);
 * - secure code switched off by the API's answer [securecode-from-build] (secure-code.ts).
 *
 * Also: a title swapped alone must be an error on the page, not silence (conversations.ts).
 *
 * Still to come, once signed distribution is in the client (branch v2-distribution): a ghost
 * participant, an injected sealed key, a fork of the membership log. Each is one more
 * `suite.attack(...)` with its check's name in TEST_CHECK_NAMES; they stand below as todos.
 *
 * Not refused yet, so not an attack case: a substituted key presented as a protocol v1 (legacy)
 * key for someone the client has never met. The client pins it on first use and seals for it,
 * marking the person "not certified" (docs/protocol.md §14.10); refusing it needs version 1
 * accounts to be certified (§14.12). It stands below as a todo too.
 */
const suite = maliciousSuite();

keyAttacks(suite);
containerAttacks(suite);
pickupAttacks(suite);
secureCodeAttacks(suite);

describe("still to come (signed distribution, branch v2-distribution)", () => {
  it.todo("a ghost participant: the server adds someone to the members a client is shown");
  it.todo("an injected sealed key: a key copy nobody who may hand one out has signed");
  it.todo("a fork of the membership log: another history than the head this client remembers");
});

describe("not refused yet (docs/protocol.md §14.10)", () => {
  it.todo("a substituted key presented as a protocol v1 key on first contact: today sealed for, the person shown 'not certified'");
});
