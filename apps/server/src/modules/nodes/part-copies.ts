import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FileOwner, FileWorkers } from '../../drivers/files/confined/protocol.ts';
import type { MovablePart, MovedService } from './part-move.jobs.ts';
import { UNNAMED_NODE } from './placement-roles.ts';

/** How a part's data goes from one server to another during a move (ServiceMoves). */
export interface PartCopy {
  /**
   * The first copy (no `since`), made while the service runs, answers the source's time from
   * which the final copy must send a thing again (undefined: everything); the final copy, given
   * it, leaves the new server holding exactly what the old one holds.
   */
  copy(service: MovedService, from: string, to: string, since?: number): Promise<number | undefined>;
}

export interface FilesCopyDeps {
  /** The file workers of a server ('' : the unnamed machine) for the part's files: homes, or mail folders. */
  filesOn(node: string): Promise<FileWorkers>;
  /** This process's root of the part's folders (PANEL_HOSTING_ROOT, PANEL_MAIL_ROOT): requests name folders under it. */
  root: string;
  /** Makes the part's folder on the unnamed machine before a copy to it (a server's agent makes its own). */
  prepareUnnamed(domain: string): Promise<void>;
  /** Whose rights the files are read and written with on the unnamed machine (a server finds its own). */
  ownerOf(serviceId: number): Promise<FileOwner | undefined>;
}

/**
 * A folder's copy (a home, a mail domain's folder): the source's tar written on the target as it
 * streams. The first copy sends everything; the final copy only what changed since (the rest by
 * name) and mirrors: what the source no longer holds goes on the target too.
 */
export function filesCopy(deps: FilesCopyDeps): PartCopy {
  return {
    async copy(service, from, to, since) {
      if (since === undefined && to === UNNAMED_NODE) await deps.prepareUnnamed(service.domain);
      const base = path.join(deps.root, service.domain);
      // a server's agent finds the owner itself; only the unnamed machine's own workers are told
      const local = from === UNNAMED_NODE || to === UNNAMED_NODE;
      const owner = local ? await deps.ownerOf(service.serviceId) : undefined;
      const [source, target] = await Promise.all([deps.filesOn(from), deps.filesOn(to)]);
      const tarArgs = since === undefined ? {} : { since };
      const { meta, output } = await source.stream({ op: 'tar', base, folder: [], args: tarArgs, owner });
      try {
        const mirror = since !== undefined;
        await target.call(
          { op: 'restore', base, folder: [], args: { path: '', top: 'folder', mirror }, owner },
          () => output,
        );
      } finally {
        output.destroy();
      }
      return typeof meta.resendSince === 'number' ? meta.resendSince : undefined;
    },
  };
}

/** A server's databases as a move reaches them: its agent's, or this process's own driver for the unnamed machine. */
export interface DatabaseEnd {
  /** The service's databases and users made there, empty (databases-move-work.ts). */
  prepare(serviceId: number): Promise<void>;
  dump(name: string): Promise<Readable>;
  load(serviceId: number, name: string, sql: Readable): Promise<void>;
}

/**
 * A service's databases' copy: the first (live) copy only makes them and their users on the new
 * server; the final one, with their users locked on the old server, streams each one's dump into
 * the new server. MariaDB has no cheap "what changed since" without its binary log, which a
 * provider's server may not keep: a live dump would be made again whole at the cut-over, so it is
 * not made twice.
 */
export function databasesCopy(deps: {
  on(node: string): Promise<DatabaseEnd>;
  namesOf(serviceId: number): Promise<string[]>;
}): PartCopy {
  return {
    async copy({ serviceId }, from, to, since) {
      const target = await deps.on(to);
      if (since === undefined) {
        await target.prepare(serviceId);
        return undefined;
      }
      const source = await deps.on(from);
      for (const name of await deps.namesOf(serviceId)) {
        const dump = await source.dump(name);
        try {
          await target.load(serviceId, name, dump);
        } finally {
          dump.destroy();
        }
      }
      return undefined;
    },
  };
}

/** Each part's copy. */
export type PartCopies = Record<MovablePart, PartCopy>;
