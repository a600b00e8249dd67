import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packFolder } from '../drivers/archives/pack-folder.ts';
import { sharedWorkers } from '../drivers/files/confined/confined-workers.ts';
import type { PartsElsewhere } from '../modules/backups/backup.service.ts';
import type { NodeChannel } from './channel-client.ts';
import type { NodeChannels } from './node-channels.ts';
import { RemoteFileWorkers } from './remote-file-workers.ts';

/**
 * A service's home and mail folder as a backup on the control plane reaches them when another
 * machine holds them (a named server, or the unnamed machine's agent for an instance apart from
 * it): mirrored into the backup's staging folder through that server's agent, which reads them
 * as their owner, and written back there by a restore. A mirror is brought up to date by what
 * changed since the last one began (the same delta as a move's final copy), so a daily backup
 * sends the day's changes, not the whole home.
 */
export function partsElsewhere(
  channels: NodeChannels,
  roots: { web: string; mail: string },
  unnamed?: NodeChannel,
): PartsElsewhere {
  const workersOf = async (serviceId: number, part: 'web' | 'mail') => {
    const channel = (await channels.forService(serviceId, part)) ?? unnamed;
    return channel && new RemoteFileWorkers(channel, roots[part], part === 'web' ? 'home' : 'mail');
  };
  return {
    async mirror(part, service, into) {
      const source = await workersOf(service.id, part);
      if (!source) return false;
      // the source's time from which the next mirror must send a file again (its own clock)
      const stateFile = `${into}.since.json`;
      const since = await readFile(stateFile, 'utf8').then(
        (text) => (JSON.parse(text) as { since?: unknown }).since,
        () => undefined,
      );
      await mkdir(into, { recursive: true, mode: 0o700 });
      const base = path.join(roots[part], service.domain);
      const args = typeof since === 'number' ? { since } : {};
      const { meta, output } = await source.stream({ op: 'tar', base, folder: [], args });
      try {
        // written with the panel's own rights: the mirror is the backup's, never served
        await sharedWorkers().call(
          { op: 'restore', base: into, folder: [], args: { path: '', top: 'folder', mirror: true } },
          () => output,
        );
      } catch (error) {
        // a mirror cut short is made whole again next time
        await rm(stateFile, { force: true });
        throw error;
      } finally {
        output.destroy();
      }
      if (typeof meta.resendSince === 'number')
        await writeFile(stateFile, JSON.stringify({ since: meta.resendSince }), { mode: 0o600 });
      return true;
    },
    async restoreMail(service, relative, source, top) {
      const target = await workersOf(service.id, 'mail');
      if (!target) return false;
      const base = path.join(roots.mail, service.domain);
      await target.call({ op: 'restore', base, folder: [], args: { path: relative, top } }, () => packFolder(source));
      return true;
    },
  };
}
