/** One thing `panel doctor` checked with a real call, and what to do when it failed. */
export interface DaemonCheck {
  name: string;
  ok: boolean;
  /** What was asked and what came back (never a password). */
  detail: string;
  /** How to fix it, when it failed. */
  fix?: string;
}

const CHECK_TIMEOUT_MS = 5000;

/** Runs one check; an exception or a check slower than 5 s is a failure with that message. */
export async function checked(
  name: string,
  fix: string,
  probe: (signal: AbortSignal) => Promise<string>,
): Promise<DaemonCheck> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`));
    }, CHECK_TIMEOUT_MS);
  });
  try {
    return { name, ok: true, detail: await Promise.race([probe(controller.signal), late]) };
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message.split('\n')[0] ?? 'failed', fix };
  } finally {
    clearTimeout(timer);
  }
}
