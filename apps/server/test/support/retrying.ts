/**
 * The attempt's answer once it stops throwing, retried every `intervalMs` until `timeoutMs`, then
 * its last error: for a daemon that was just (re)started and opens its port; never a fixed wait.
 */
export async function retrying<T>(attempt: () => Promise<T>, timeoutMs: number, intervalMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** Polls a condition every 50 ms, for at most 30 s. */
export async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  for (let waited = 0; !(await check()); waited += 50) {
    if (waited > 30_000) throw new Error('not within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
