import { containerAttacks } from "./conversations";
import { distributionAttacks } from "./distribution";
import { groupLogAttacks } from "./group-log";
import { maliciousSuite } from "./harness";
import { keyAttacks } from "./keys";
import { pageKeyAttacks } from "./page-keys";
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
 * - a forged key reset: a contact's chain continued by a record for the server's keys, certified
 *   by a reset from an "administrator" resting on a root of the server's own [identity-anchors]
 *   (keys.ts);
 * - an old key record: an older, validly signed identity record than one the client has seen
 *   [pin-seq] (keys.ts);
 * - a substituted key presented as a protocol v1 (legacy) key on first contact, on an instance
 *   whose root published the rule that v1 keys need an administrator's certificate [legacy-uncertified]
 *   (keys.ts);
 * - key and title swapped between conversations: X's answers carry Y's signed log, records, copy,
 *   title and messages [container-binding] (conversations.ts);
 * - a ghost participant in the people the server lists and the record it serves
 *   [members-from-log] (distribution.ts);
 * - a ghost in the people of a version 1 conversation, whose migration would sign them in: the
 *   people are shown for its member to confirm first [migration-people] (distribution.ts);
 * - an injected key copy, sealed by the server [copy-signature] (distribution.ts);
 * - a fork and a rollback of the membership log [log-head] (distribution.ts);
 * - a rollback of a group's membership log, and a fork of it signed by the same admin [log-head]
 *   (group-log.ts);
 * - a fork shown from the start to a member who remembers no head, caught by the head another
 *   member's message names [message-log-head] (distribution.ts);
 * - a fork nobody writes into, caught when two members compare the membership fingerprints their
 *   panels show [fingerprint-of-head] (distribution.ts);
 * - a message in a member's name without their signature [message-signature] (distribution.ts);
 * - a forged link between a restricted page's key generations, made by a reader of the newer one,
 *   carrying a key of the server's choosing to cards of its making [page-key-link] (page-keys.ts);
 * - downgraded pickup parameters: Argon2id at 1 MiB and 1 pass [pickup-floor] (pickups.ts);
 * - secure code switched off by the API's answer [securecode-from-build] (secure-code.ts).
 *
 * Also: a title swapped alone must be an error on the page, not silence (conversations.ts).
 *
 * Not refused, by design (docs/protocol.md §14.10, §14.14): a substituted v1 key on an instance
 * whose root has not published the legacy rule (pinned on first use and shown "not certified").
 * Out of reach of any such test: a server that serves modified JavaScript.
 */
const suite = maliciousSuite();

keyAttacks(suite);
containerAttacks(suite);
distributionAttacks(suite);
groupLogAttacks(suite);
pageKeyAttacks(suite);
pickupAttacks(suite);
secureCodeAttacks(suite);
