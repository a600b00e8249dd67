/** One thing `panel doctor` checked with a real call, and what to do when it failed. */
export interface DaemonCheck {
  name: string;
  /** False only when the check ran and failed; a skipped check is not a failure. */
  ok: boolean;
  /** The check could not run (nothing configured to ask): `detail` says why. Never counted as passed. */
  skipped?: true;
  /** What was asked and what came back (never a password). */
  detail: string;
  /** How to fix it, when it failed. */
  fix?: string;
}

const CHECK_TIMEOUT_MS = 5000;
/** A customer probe as a whole (connection, TLS, a login that a refusal delays on purpose, logout). */
export const CUSTOMER_CHECK_TIMEOUT_MS = 15_000;

/** Thrown by a probe that found nothing to ask (e.g. no zone hosted yet): the check is skipped, with this message as why. */
export class NothingToCheck extends Error {}

/**
 * Runs one check; an exception or a check slower than 5 s (or `timeoutMs`) is a failure with that message, a
 * {@link NothingToCheck} a skip.
 */
export async function checked(
  name: string,
  fix: string,
  probe: (signal: AbortSignal) => Promise<string>,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<DaemonCheck> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
  });
  try {
    return { name, ok: true, detail: await Promise.race([probe(controller.signal), late]) };
  } catch (error) {
    if (error instanceof NothingToCheck) return { name, ok: true, skipped: true, detail: `skipped: ${error.message}` };
    return { name, ok: false, detail: (error as Error).message.split('\n')[0] ?? 'failed', fix };
  } finally {
    clearTimeout(timer);
  }
}

/** A check that could not run, and why (e.g. an embedded driver: there is no daemon to ask). */
export function skipped(name: string, why: string): Promise<DaemonCheck> {
  return Promise.resolve({ name, ok: true, skipped: true, detail: `skipped: ${why}` });
}
