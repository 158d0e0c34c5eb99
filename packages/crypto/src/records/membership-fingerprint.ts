import { concatBytes, utf8Encode } from "../bytes";
import { canonicalJson } from "../canonical-json";
import { CryptoError } from "../errors";
import { sha256 } from "../primitives";
import { type LogHead, membershipContainer } from "./membership-log";
import { logHeadField, parseRecord } from "./v2-fields";

/**
 * The membership fingerprint (docs/protocol.md §14.7, "Membership fingerprints"): 12 digits in
 * three groups of four that the members of a conversation or a group compare out of band (in
 * person, on a call), derived from the head of the log each verified in their own client. The
 * same head gives the same digits; a server that shows two members different histories (a fork,
 * or one of them an older one) shows them different digits, even if neither ever writes.
 *
 *   P      = UTF-8(canonicalJSON({ container: "<kind>:<id>", hash, seq }))
 *   H      = SHA-256("sealwork/v2/membership-fingerprint\n" ‖ P)
 *   digits = for each of the first two 5-byte chunks of H: uint40_be(chunk) mod 10^6, 6 digits
 *
 * No stretching (unlike a safety number): the server signs no entry, so it cannot grind heads;
 * only a member with the right to change the log could, at one signature per try.
 */
export async function membershipFingerprint(log: { container: string; head: LogHead }): Promise<string> {
  const named = /^(conversation|group):(\d+)$/.exec(typeof log?.container === "string" ? log.container : "");
  if (!named) throw new CryptoError("invalid_input", "a container is conversation:<id> or group:<id>");
  // Canonical: the container as membershipContainer writes it (no leading zeros, a safe id).
  const container = membershipContainer(named[1] as "conversation" | "group", Number(named[2]));
  if (container !== log.container) throw new CryptoError("invalid_input", "a container is conversation:<id> or group:<id>");
  const { seq, hash } = parseRecord(logHeadField, log.head, "log head", "invalid_input");
  const digest = await sha256(concatBytes(utf8Encode("sealwork/v2/membership-fingerprint\n"), utf8Encode(canonicalJson({ container, hash, seq }))));
  let digits = "";
  for (let chunk = 0; chunk < 2; chunk++) {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 256 + digest[chunk * 5 + i]!;
    digits += String(value % 1_000_000).padStart(6, "0");
  }
  return digits.match(/.{4}/g)!.join(" ");
}
