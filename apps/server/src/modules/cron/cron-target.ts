import type { CronKind } from '@panel247/contract/cron';

/**
 * What a task runs, checked before it is kept. A script is a path relative to the home: no
 * absolute path, no `..`, names of letters, digits, `._-~@+` and spaces, ending in `.php`. It is
 * run by the service's own user, so a link in the home reaches only what that user may read; the
 * check is there so the path means what the customer sees in the list. A URL is http(s) at the
 * service's domain or a name under it (its sites), without user info.
 */

const SEGMENT = /^[A-Za-z0-9._~@+ -]{1,255}$/;

export type TargetProblem = 'cron.error.kind' | 'cron.error.script' | 'cron.error.url';

export function checkKind(value: string): CronKind | undefined {
  return value === 'php' || value === 'url' ? value : undefined;
}

/** The target as kept (a script's path without a leading `./`), or its problem. */
export function checkTarget(
  kind: CronKind,
  value: string,
  domain: string,
): { target: string } | { problem: TargetProblem } {
  const typed = value.trim();
  if (kind === 'php') {
    const script = typed.replace(/^(\.\/)+/, '');
    const segments = script.split('/');
    const fine =
      script.length <= 1024 &&
      !script.startsWith('/') &&
      segments.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..') &&
      script.toLowerCase().endsWith('.php');
    return fine ? { target: script } : { problem: 'cron.error.script' };
  }
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return { problem: 'cron.error.url' };
  }
  const host = url.hostname.toLowerCase();
  const ours = host === domain || host.endsWith(`.${domain}`);
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || !ours || typed.length > 2048)
    return { problem: 'cron.error.url' };
  return { target: url.toString() };
}
