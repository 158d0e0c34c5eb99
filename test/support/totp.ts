import { Secret, TOTP } from "otpauth";
import { http } from "./api";

/**
 * Codes as an authenticator app computes them (RFC 6238: SHA-1, 6 digits, 30 s). The server
 * refuses a code of a time step it has already accepted, so tests ask for the code of the next
 * unused step instead of reusing one.
 */
const PERIOD_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const currentStep = (): number => Math.floor(Date.now() / PERIOD_MS);

export function codeAt(secret: string, step: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: step * PERIOD_MS });
}

/** Waits out the end of a time step, so a code computed now is still current when it arrives. */
export async function awayFromStepEdge(marginMs = 4000): Promise<void> {
  const remaining = PERIOD_MS - (Date.now() % PERIOD_MS);
  if (remaining < marginMs) await sleep(remaining + 100);
}

/**
 * The code of the first step after `lastStep` that the server accepts now (it allows one step of
 * drift either side); waits when that step is still further ahead.
 */
export async function nextCode(secret: string, lastStep: number): Promise<{ code: string; step: number }> {
  for (;;) {
    const now = currentStep();
    const step = Math.max(now, lastStep + 1);
    if (step <= now + 1) return { code: codeAt(secret, step), step };
    await sleep(PERIOD_MS - (Date.now() % PERIOD_MS) + 100);
  }
}

/** Switches 2FA on for a signed-in account over the API; the finalizing code's step is used up. */
export async function enableTotp(token: string): Promise<{ secret: string; recovery: string[]; lastStep: number }> {
  const start = await http<{ secret: string }>("POST", "/api/verification/totpSetup", { token, body: {} });
  if (start.status !== 200) throw new Error(`totpSetup failed: ${start.status} ${JSON.stringify(start.body)}`);
  await awayFromStepEdge();
  const step = currentStep();
  const secret = start.body.secret;
  const done = await http<{ recovery: string[] }>("POST", "/api/verification/totpSetup", {
    token,
    body: { totp_secret: secret, totp_verify: codeAt(secret, step) },
  });
  if (done.status !== 200) throw new Error(`totpSetup finalize failed: ${done.status} ${JSON.stringify(done.body)}`);
  return { secret, recovery: done.body.recovery, lastStep: step };
}
