import { SENTINEL_TOLERANCE_SECONDS } from "@sealwork/contracts";
import {
  type AccountKeys,
  type SecureCodeWrapEnvelope,
  type SignedKeyReset,
  accountPublicKeys,
  generateAccountKeys,
  isCryptoError,
  lockAccountKeys,
  parseEnvelope,
  rootAnchor,
  wrapAccountKeys,
} from "@sealwork/crypto";
import { useCallback, useEffect, useRef, useState } from "react";
import { isApiError } from "../../lib/api";
import { secureCodeSetting } from "../../lib/build-settings";
import { downloadBlob } from "../../lib/download";
import { i18next } from "../../lib/i18n";
import {
  type KeyState,
  type KeypairView,
  envelopeMatches,
  fetchBackup,
  fetchKeyState,
  readKeyFile,
  registerKeypair,
  verifyKeypair,
} from "../../lib/keypairs";
import { isInvitationCode, normalizeInvitationCode } from "../../lib/invitation-code";
import { setUnlockedKeys } from "../../lib/unlocked-keys";
import { VaultError, clearLocalKey, loadLocalKey, readRaw, saveLocalKey, type LocalKey } from "../../lib/vault";
import { afterUnlock, openBackup, pendingReset, rootForFirstKey, takeoverIdentity } from "./identity-steps";
import { KeyFlowError, step, type KeyErrorCode } from "./key-errors";
import { WRONG_CODE, open } from "./open-envelope";
import "./i18n";

/**
 * The secure-key popup's states (spec 000 §2, §4): checking, then fresh (no key anywhere),
 * unlock (this device holds the server's current key), missing (it holds none or an older one:
 * recovery from the server backup, or import of a key file), invalidated, error, and loaded,
 * when the keys are unlocked in memory and the popup closes. temp (an invitation's temporary key):
 * the invitation code opens it (`keys` then set: the temporary keys), and with the user's own
 * secure code the browser makes fresh keys, certified by the temporary key where the invitation
 * is signed, and registers them in its place (docs/protocol.md §13, §14.3). The same after an
 * administrator reset the key of a user who lost their secure code (`reset` set: the code is the
 * reset code, and the new key continues their identity chain, certified by the reset).
 */
export type KeyFlowState =
  | { kind: "checking" }
  | { kind: "fresh"; server: KeyState; lastKey: number | null }
  | { kind: "unlock"; server: KeyState; keypair: KeypairView; local: LocalKey }
  | { kind: "missing"; server: KeyState; keypair: KeypairView; older: boolean }
  | { kind: "recovery"; server: KeyState; keypair: KeypairView }
  | { kind: "import"; server: KeyState; keypair: KeypairView; envelope: SecureCodeWrapEnvelope | null }
  | { kind: "invalidated"; server: KeyState; keypair: KeypairView }
  | { kind: "temp"; server: KeyState; keypair: KeypairView; keys: AccountKeys | null; reset: SignedKeyReset | null }
  | { kind: "error"; code: KeyErrorCode }
  | { kind: "loaded" };

export type KeyFlowBusy = "generating" | "unlocking" | "recovering" | "opening" | "openingReset" | null;

/** A problem shown inside the current state (a wrong code), not a move to the error state. */
export interface KeyFlowNotice {
  message: string;
  detail?: string;
}


export function useKeyFlow(uid: number) {
  const [state, setState] = useState<KeyFlowState>({ kind: "checking" });
  const [busy, setBusy] = useState<KeyFlowBusy>(null);
  const [notice, setNotice] = useState<KeyFlowNotice | null>(null);
  // Each run gets a number; a run that a newer one (or an unmount) overtook changes nothing.
  const run = useRef(0);
  const backup = useRef<SecureCodeWrapEnvelope | null>(null);
  const transit = useRef<SecureCodeWrapEnvelope | null>(null);

  const go = useCallback((next: KeyFlowState) => {
    setNotice(null);
    setState(next);
  }, []);

  /** Runs one step of the flow: KeyFlowErrors lead to the error state, anything else to BRCH. */
  const perform = useCallback(
    async (work: (current: number) => Promise<void>, busyAs: KeyFlowBusy = null) => {
      const current = ++run.current;
      setBusy(busyAs);
      setNotice(null);
      try {
        // Let the progress indicator paint before Argon2id takes the main thread.
        if (busyAs) await new Promise((resolve) => window.setTimeout(resolve, 30));
        await work(current);
      } catch (error) {
        if (current !== run.current) return;
        const code = error instanceof KeyFlowError ? error.code : "BRCH";
        console.error(`Key popup error ${code}`, error);
        go({ kind: "error", code });
      } finally {
        if (current === run.current) setBusy(null);
      }
    },
    [go],
  );

  const check = useCallback(
    () =>
      perform(async (current) => {
        go({ kind: "checking" });
        if (typeof globalThis.crypto?.subtle?.generateKey !== "function") throw new KeyFlowError("NCRP");
        const server = await fetchKeyState().catch((error: unknown) => {
          throw new KeyFlowError(isApiError(error, 0) ? "SYNT" : "SYNA", { cause: error });
        });
        const localNow = Date.now() / 1000;
        const keypair = server.keypair;
        // Spec 000 §5: the server's time must be within 24 h of ours, and a key cannot have been
        // registered (sentinel) more than 24 h in our future.
        if (Math.abs(server.now - localNow) > SENTINEL_TOLERANCE_SECONDS) throw new KeyFlowError("SNTL");
        if (keypair && keypair.sentinel - localNow > SENTINEL_TOLERANCE_SECONDS) throw new KeyFlowError("SNTL");

        const local = await loadLocalKey(uid).catch((error: unknown) => {
          throw new KeyFlowError(error instanceof VaultError ? error.code : "UNRD", { cause: error });
        });
        if (current !== run.current) return;
        if (!keypair) {
          if (local.status !== "none") throw new KeyFlowError("KPM4");
          return go({ kind: "fresh", server, lastKey: null });
        }
        await step("BRCC", () => verifyKeypair(keypair));
        if (current !== run.current) return;
        if (!keypair.valid) return go({ kind: "invalidated", server, keypair });
        // An invitation's key (or a key reset's): whatever this device holds, the user takes this one over first.
        if (keypair.type === "temp") {
          const reset = await step("SYNA", () => pendingReset());
          if (current !== run.current) return;
          return go({ kind: "temp", server, keypair, keys: null, reset });
        }
        if (local.status === "none") return go({ kind: "missing", server, keypair, older: false });
        if (local.status === "damaged") throw new KeyFlowError("LINV");
        const { key } = local;
        if (key.keyId < keypair.id) return go({ kind: "missing", server, keypair, older: true });
        if (key.keyId > keypair.id) throw new KeyFlowError("KPM3");
        if (!envelopeMatches(key.envelope, keypair)) throw new KeyFlowError("KPM1");
        go({ kind: "unlock", server, keypair, local: key });
      }),
    [go, perform, uid],
  );

  useEffect(() => {
    void check();
    return () => {
      run.current++;
    };
  }, [check]);

  const finish = useCallback(
    async (current: number, keyId: number, keys: AccountKeys, firstSeen?: string[]) => {
      const publicKeys = await accountPublicKeys(keys);
      // Wrapped and stored: what stays in memory can sign and open, never be exported (issue 11, item 8).
      const locked = await lockAccountKeys(keys);
      if (current !== run.current) return;
      const unlocked = { uid, keyId, keys: locked, publicKeys };
      // Protocol v2's steps after unlocking: not a reason to keep anyone out of the app (the
      // anchors are pinned again at the first lookup of a contact, which does refuse).
      await afterUnlock(unlocked, firstSeen).catch((error: unknown) => console.warn("Pinning the instance anchors failed", error));
      if (current !== run.current) return;
      setUnlockedKeys(unlocked);
      go({ kind: "loaded" });
    },
    [go, uid],
  );

  const wrongCode = useCallback(() => setNotice({ message: i18next.t("keys:wrongCode") }), []);

  /** fresh: create the keys, wrap them under the code, register them, keep the envelope here. */
  const create = useCallback(
    (code: string) => {
      if (state.kind !== "fresh") return;
      const { lastKey } = state;
      return perform(async (current) => {
        const keys = await step("KGAC", async () => {
          try {
            return await generateAccountKeys();
          } catch (error) {
            if (isCryptoError(error, "crypto_unavailable")) throw new KeyFlowError("NCRP", { cause: error });
            throw error;
          }
        });
        // The setup administrator's first key is the instance's root identity, and its backup is bound to it.
        const root = lastKey === null ? await step("SYNA", () => rootForFirstKey(uid, keys)) : undefined;
        const anchor = root ? await step("KGAE", () => rootAnchor(root)) : undefined;
        const envelope = await step("KGAE", () => wrapAccountKeys(keys, code, undefined, { anchor }));
        const view = await registerKeypair(uid, keys, envelope, lastKey, root).catch((error: unknown) => {
          if (isCryptoError(error)) throw new KeyFlowError("KGAE", { cause: error });
          const failure: KeyErrorCode = isApiError(error, 0) ? "SYNT" : isApiError(error, 409) ? "SYNF" : "SYNB";
          throw new KeyFlowError(failure, { cause: error });
        });
        // Registered first: a key stored here that the server never accepted would be KPM4 later.
        await step("KGAS", () => saveLocalKey(uid, view.id, envelope));
        await finish(current, view.id, keys);
      }, "generating");
    },
    [finish, perform, state, uid],
  );

  /** unlock: open this device's envelope with the code. */
  const unlock = useCallback(
    (code: string) => {
      if (state.kind !== "unlock") return;
      const { local } = state;
      return perform(async (current) => {
        const opened = await openBackup(local.envelope, code, { damaged: "KPM2", malformed: "LINV" });
        if (current !== run.current) return;
        if (opened === WRONG_CODE) return wrongCode();
        await finish(current, local.keyId, opened.keys, opened.pinned);
      }, "unlocking");
    },
    [finish, perform, state, wrongCode],
  );

  /** recovery: fetch the server backup once, open it with the code, keep it on this device. */
  const recover = useCallback(
    (code: string) => {
      if (state.kind !== "recovery" && state.kind !== "missing") return;
      const { keypair } = state;
      return perform(async (current) => {
        if (!backup.current) {
          const raw = await fetchBackup(keypair.id).catch((error: unknown) => {
            throw new KeyFlowError(isApiError(error, 404) ? "RCHS" : "RCFT", { cause: error });
          });
          const envelope = await step("RCCD", async () => parseEnvelope(raw, "secure-code-wrap"));
          if (!envelopeMatches(envelope, keypair)) throw new KeyFlowError("RCCD");
          backup.current = envelope;
        }
        const envelope = backup.current;
        const opened = await openBackup(envelope, code, { damaged: "RCCD", malformed: "RCCD" });
        if (current !== run.current) return;
        if (opened === WRONG_CODE) return wrongCode();
        await step("RCFO", () => saveLocalKey(uid, keypair.id, envelope));
        await finish(current, keypair.id, opened.keys, opened.pinned);
      }, "recovering");
    },
    [finish, perform, state, uid, wrongCode],
  );

  /** import: read a key file; it must hold the server's current key. */
  const pickFile = useCallback(
    async (file: File | null) => {
      if (state.kind !== "import") return;
      if (!file) return go({ ...state, envelope: null });
      try {
        const envelope = await readKeyFile(file);
        if (!envelopeMatches(envelope, state.keypair)) {
          setState({ ...state, envelope: null });
          return setNotice({ message: i18next.t("keys:import.failed"), detail: i18next.t("keys:import.otherKey") });
        }
        go({ ...state, envelope });
      } catch (error) {
        console.warn("Not a key file", error);
        setState({ ...state, envelope: null });
        setNotice({ message: i18next.t("keys:import.failed") });
      }
    },
    [go, state],
  );

  const importKey = useCallback(
    (code: string) => {
      if (state.kind !== "import" || !state.envelope) return;
      const { envelope, keypair } = state;
      return perform(async (current) => {
        const opened = await openBackup(envelope, code, { damaged: "KPM2", malformed: "LINV" });
        if (current !== run.current) return;
        if (opened === WRONG_CODE) return wrongCode();
        await step("KGAS", () => saveLocalKey(uid, keypair.id, envelope));
        await finish(current, keypair.id, opened.keys, opened.pinned);
      }, "unlocking");
    },
    [finish, perform, state, uid, wrongCode],
  );

  /** temp, first step: fetch the transit envelope once and open it with the invitation code. */
  const openInvitation = useCallback(
    (input: string) => {
      if (state.kind !== "temp" || state.keys) return;
      // Where the build switched secure codes off, the invitation code is its default code, as typed.
      const codesOff = secureCodeSetting().disabled;
      const code = codesOff ? input : normalizeInvitationCode(input);
      if (!codesOff && !isInvitationCode(code)) return setNotice({ message: i18next.t(state.reset ? "keys:reset.invalid" : "keys:temp.invalid") });
      const taken = state;
      return perform(async (current) => {
        if (!transit.current) {
          const raw = await fetchBackup(taken.keypair.id).catch((error: unknown) => {
            throw new KeyFlowError(isApiError(error) && error.code === "key_reset_expired" ? "TTRX" : "TTFT", { cause: error });
          });
          const envelope = await step("TTFO", async () => parseEnvelope(raw, "secure-code-wrap"));
          if (!envelopeMatches(envelope, taken.keypair)) throw new KeyFlowError("TTFO");
          transit.current = envelope;
        }
        // (A transit envelope holds the temporary keys, bound to nothing.)
        const opened = await open(transit.current, code, { damaged: "TTCD", malformed: "TTFO" });
        if (current !== run.current) return;
        if (opened === WRONG_CODE) return setNotice({ message: i18next.t("keys:wrongCode"), detail: `${i18next.t("keys:error.code")} TTCD` });
        go({ ...taken, keys: opened.keys });
      }, taken.reset ? "openingReset" : "opening");
    },
    [go, perform, state],
  );

  /**
   * temp, second step: fresh keys of the user's own (never the temporary ones the administrator's
   * browser made), their birth record certified by the temporary key where the invitation is
   * signed, wrapped under the user's own code and registered in place of the temporary key, which
   * the server deletes with its transit envelope.
   */
  const takeOver = useCallback(
    (code: string) => {
      if (state.kind !== "temp" || !state.keys) return;
      const { keys: temp, keypair } = state;
      return perform(async (current) => {
        const keys = await step("KGAC", () => generateAccountKeys());
        const { identity, anchors, anchor } = await step("TTHS", () => takeoverIdentity(uid, keys, temp));
        const envelope = await step("KGAE", () => wrapAccountKeys(keys, code, undefined, { anchor }));
        const view = await registerKeypair(uid, keys, envelope, keypair.id, identity).catch((error: unknown) => {
          if (isApiError(error) && error.code === "key_reset_expired") throw new KeyFlowError("TTRX", { cause: error });
          throw new KeyFlowError(isCryptoError(error) ? "KGAE" : "TTHS", { cause: error });
        });
        transit.current = null;
        await step("KGAS", () => saveLocalKey(uid, view.id, envelope));
        await finish(current, view.id, keys, anchors);
      }, "generating");
    },
    [finish, perform, state, uid],
  );

  const chooseRecovery = useCallback(() => {
    if (state.kind === "missing") go({ kind: "recovery", server: state.server, keypair: state.keypair });
  }, [go, state]);

  const chooseImport = useCallback(() => {
    if (state.kind === "missing") go({ kind: "import", server: state.server, keypair: state.keypair, envelope: null });
  }, [go, state]);

  const backToMissing = useCallback(() => {
    if (state.kind === "recovery" || state.kind === "import") go({ kind: "missing", server: state.server, keypair: state.keypair, older: false });
  }, [go, state]);

  /** invalidated: make a new key in place of the invalid one. */
  const renew = useCallback(() => {
    if (state.kind === "invalidated") go({ kind: "fresh", server: state.server, lastKey: state.keypair.id });
  }, [go, state]);

  /** LINV, KPM…: download whatever is stored, as it is, before clearing it. */
  const saveLocal = useCallback(async () => {
    try {
      const raw = await readRaw(uid);
      const text = JSON.stringify(raw ?? null, null, 2);
      downloadBlob(`sealwork-local-key-${uid}.json`, new Blob([text], { type: "application/json" }));
    } catch (error) {
      console.error("Could not read the local key", error);
      setNotice({ message: i18next.t("keys:codes.UNRD") });
    }
  }, [uid]);

  const clearLocal = useCallback(async () => {
    try {
      await clearLocalKey(uid);
    } catch (error) {
      console.error("Could not clear the local key", error);
      return setNotice({ message: i18next.t("keys:codes.UNEK") });
    }
    await check();
  }, [check, uid]);

  return {
    state,
    busy,
    notice,
    retry: check,
    create,
    unlock,
    recover,
    pickFile,
    importKey,
    chooseRecovery,
    chooseImport,
    backToMissing,
    renew,
    openInvitation,
    takeOver,
    saveLocal,
    clearLocal,
  };
}

export type KeyFlow = ReturnType<typeof useKeyFlow>;
