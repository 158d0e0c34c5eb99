import { isWellFormed } from "./bytes";
import { CryptoError } from "./errors";

const MAX_DEPTH = 64;

/**
 * One text per value, so a signature or an associated-data string made on one device checks on
 * another: object keys sorted by UTF-16 code units, no whitespace, numbers and strings as
 * JSON.stringify writes them (the same rules as RFC 8785 for the values we accept).
 *
 * Refused (invalid_input) rather than silently dropped or changed, because JSON.stringify would
 * make different values sign the same: undefined, functions, symbols, bigint, non-finite
 * numbers, lone surrogates, class instances (Date, Map, Uint8Array...), cycles and very deep
 * nesting. Strings are not Unicode-normalised: signer and verifier must hold the same text.
 */
export function canonicalJson(value: unknown): string {
  return write(value, 0);
}

function write(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw refuse("nesting too deep (or a cycle)");
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw refuse("non-finite number");
    return JSON.stringify(value);
  }
  if (typeof value === "string") {
    if (!isWellFormed(value)) throw refuse("string contains a lone surrogate");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || value[i] === undefined) throw refuse("array hole or undefined item");
      items.push(write(value[i], depth + 1));
    }
    return `[${items.join(",")}]`;
  }
  if (typeof value === "object" && isPlainObject(value)) {
    if (Object.getOwnPropertySymbols(value).length > 0) throw refuse("symbol keys");
    const keys = Object.keys(value).sort();
    const members = keys.map((key) => {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined) throw refuse(`undefined value at "${key}"`);
      return `${write(key, depth + 1)}:${write(member, depth + 1)}`;
    });
    return `{${members.join(",")}}`;
  }
  throw refuse(`unsupported value of type ${typeof value}`);
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function refuse(reason: string): CryptoError {
  return new CryptoError("invalid_input", `cannot encode as canonical JSON: ${reason}`);
}
