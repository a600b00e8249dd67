import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Idle and total CPU time of the whole machine so far (Linux's /proc/stat, in clock ticks). */
function cpuTimes(): { idle: number; total: number } | null {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
    return { idle, total: fields.reduce((sum, value) => sum + value, 0) };
  } catch {
    return null;
  }
}

/**
 * Waits until the machine has been mostly idle (`idleShare` of its CPU time) for one `window`, at
 * most `timeoutMs`; returns the milliseconds waited. A browser context closed a moment ago is still
 * tearing its renderer down, and the kernel reclaiming its memory, for a second or more: measured
 * on 2 cores, a visit started at once paid for that (the DNS view's LCP 1.9 s against 1.2 s after a
 * pause). A first visit is measured on a quiet machine. Without /proc/stat it waits one window.
 */
export async function waitForQuietMachine({ idleShare = 0.8, windowMs = 250, timeoutMs = 5000 } = {}) {
  const started = performance.now();
  for (;;) {
    const before = cpuTimes();
    await sleep(windowMs);
    const after = cpuTimes();
    if (!before || !after) return performance.now() - started;
    const total = after.total - before.total;
    const quiet = total > 0 && (after.idle - before.idle) / total >= idleShare;
    if (quiet || performance.now() - started >= timeoutMs) return performance.now() - started;
  }
}
