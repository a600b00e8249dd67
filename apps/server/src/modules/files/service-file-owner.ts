import type { AppConfig } from '../../config.ts';
import type { FileOwner } from '../../drivers/files/confined/protocol.ts';

/**
 * Whose rights work in a service's home runs with: the file manager, restores, the installer.
 * Until services have users of their own, a panel running as root still leaves its rights
 * behind: the work runs as the shared hosting user (PANEL_HOSTING_UID/GID), which cannot read the
 * panel's data; a panel that is not root keeps its own.
 */
export function serviceFileOwner(config: AppConfig): (serviceId: number) => Promise<FileOwner | undefined> {
  const shared = { uid: config.hosting.uid, gid: config.hosting.gid };
  return async () => (process.getuid?.() === 0 ? shared : undefined);
}
