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
