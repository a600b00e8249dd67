import { chmodSync, lstatSync, rmSync } from 'node:fs';
import net from 'node:net';

/**
 * The file of the policy service's Unix socket (PANEL_MAIL_POLICY_LISTEN given as a path, e.g.
 * /var/spool/postfix/private/panel247-policy). Postfix's private/ folder is postfix's own (0700):
 * only root and Postfix reach a socket inside it, unlike a loopback port, which every local
 * process (customers' PHP among them) can connect to.
 */

/** Whether a process accepts connections on the socket now. */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect({ path: socketPath });
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * Removes a socket left by a panel that did not stop cleanly, so the next listen does not fail
 * with EADDRINUSE. A socket another process still listens on is not taken from it, and anything
 * at the path that is not a socket is refused, never removed.
 */
export async function removeStaleSocket(socketPath: string): Promise<void> {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stat.isSocket()) throw new Error(`${socketPath} exists and is not a socket: not replaced`);
  if (await answers(socketPath)) throw new Error(`another process listens on ${socketPath}`);
  rmSync(socketPath);
}

/** Opens the socket to any user who can reach its folder: the folder is what guards it. */
export function openSocketToFolder(socketPath: string): void {
  chmodSync(socketPath, 0o666);
}
