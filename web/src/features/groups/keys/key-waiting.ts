import { i18next } from "../../../lib/i18n";
import { ns } from "./i18n";

/**
 * One's copy of the group's current key is not there yet (a pending member, or a wrap on its way):
 * not a trust problem. Its own small module, so that the shell's one wait for it (wrap-wait.ts)
 * knows it without loading the ring's verification.
 */
export class GroupKeyWaitingError extends Error {
  constructor(readonly groupId: number) {
    super(i18next.t(`${ns}:distribution.waiting`));
    this.name = "GroupKeyWaitingError";
  }
}
