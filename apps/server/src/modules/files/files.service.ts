import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { isActionable } from '@panel247/contract/constants';
import type { FileEntry, FilesListData, FilesUploadData } from '@panel247/contract/files';
import type { Db } from '../../db/database.ts';
import type { FileOwner } from '../../drivers/files/confined/protocol.ts';
import type { FilesPlace, ServiceFiles } from '../../drivers/files/service-files.ts';
import type { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { NotFoundError, QuotaError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { findFtpAccountRoot } from '../ftp/ftp-account-root.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import { planLimits } from '../plans/plan-limits.ts';

/** Which files: the service home, or one FTP account's folder (the file manager as its WebFTP). */
export interface FilesRoot {
  id: number;
  ftp?: number | undefined;
}

interface ResolvedRoot {
  serviceId: number;
  /** The home, the folder everything is relative to, and whose rights the work runs with. */
  place: FilesPlace;
  domain: string;
  /** The FTP account's login, or '' for the home. */
  account: string;
  /** The account's folder relative to the home ('' for the home). */
  folder: string;
  writable: boolean;
}

/**
 * The file manager of a hosting service. Seeing files takes the FTP right's visibility, changing
 * them its action (the same right that creates FTP accounts, which can change every file of the
 * home anyway). Opened for an FTP account, the root is that account's folder and nothing above
 * it is reachable, as over FTP. Uploads count against the plan's web space.
 */
export class FilesService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly homes: ServiceHomes,
    private readonly files: ServiceFiles,
    /** The service's own user, or undefined where services have none (the panel's rights). */
    private readonly ownerOf: (serviceId: number) => Promise<FileOwner | undefined>,
  ) {}

  private async root(actor: Actor, where: FilesRoot, need: 'visible' | 'action'): Promise<ResolvedRoot> {
    const resource = await this.permissions.authorize(actor, where.id, 'service_ftp', need);
    if (!resource.hasService) throw new NotFoundError();
    const domain = resource.referencePunycode;
    const writable = isActionable(resource.levels.service_ftp);
    const owner = await this.ownerOf(where.id);
    if (where.ftp === undefined) {
      // A new service's home may not be on the disk yet: it is made as FTP accounts make theirs.
      const home = await this.homes.prepare(domain, '', 'path');
      return { serviceId: where.id, place: { home, folder: '', owner }, domain, account: '', folder: '', writable };
    }
    const account = await findFtpAccountRoot(this.db, where.id, where.ftp);
    if (!account) throw new NotFoundError();
    // The account's folder is walked below the home like any path: a link in its place leads nowhere.
    const place = { home: this.homes.home(domain), folder: account.folder, owner };
    return { serviceId: where.id, place, domain, account: account.login, folder: account.folder, writable };
  }

  async list(actor: Actor, where: FilesRoot, path: string): Promise<FilesListData> {
    const root = await this.root(actor, where, 'visible');
    const entries: FileEntry[] = await this.files.list(root.place, path);
    return { path, account: root.account, rootFolder: root.folder, entries, writable: root.writable };
  }

  async read(actor: Actor, where: FilesRoot, path: string): Promise<string> {
    return this.files.read((await this.root(actor, where, 'visible')).place, path);
  }

  async download(
    actor: Actor,
    where: FilesRoot,
    path: string,
  ): Promise<{ name: string; size: number; stream: Readable }> {
    return this.files.download((await this.root(actor, where, 'visible')).place, path);
  }

  async save(actor: Actor, where: FilesRoot, path: string, content: string): Promise<void> {
    await this.files.save((await this.root(actor, where, 'action')).place, path, content);
  }

  async createFolder(actor: Actor, where: FilesRoot, folder: string, name: string): Promise<void> {
    await this.files.createFolder((await this.root(actor, where, 'action')).place, folder, name);
  }

  async rename(actor: Actor, where: FilesRoot, path: string, name: string): Promise<void> {
    await this.files.rename((await this.root(actor, where, 'action')).place, path, name);
  }

  async remove(actor: Actor, where: FilesRoot, path: string): Promise<void> {
    await this.files.remove((await this.root(actor, where, 'action')).place, path);
  }

  async copyOrMove(actor: Actor, where: FilesRoot, path: string, to: string, how: 'copy' | 'move'): Promise<void> {
    const root = await this.root(actor, where, 'action');
    // A copy adds to the home: it must fit what is left of the plan, counted as it is written.
    const room = how === 'copy' ? await this.ensureRoom(root, 0) : undefined;
    await this.files.copyOrMove(root.place, path, to, how, room);
  }

  async setMode(actor: Actor, where: FilesRoot, path: string, mode: string): Promise<void> {
    await this.files.setMode((await this.root(actor, where, 'action')).place, path, Number.parseInt(mode, 8));
  }

  /** Unpacks within what is left of the plan's web space. */
  async extract(actor: Actor, where: FilesRoot, path: string): Promise<string> {
    const root = await this.root(actor, where, 'action');
    const room = await this.ensureRoom(root, 0);
    return this.files.extract(root.place, path, room);
  }

  async zip(actor: Actor, where: FilesRoot, path: string): Promise<{ name: string; stream: Readable }> {
    return this.files.zip((await this.root(actor, where, 'visible')).place, path);
  }

  /**
   * Bytes left of the plan's web space once `adding` more arrive, against the home's usage
   * measured now (every entry, as the service's user); refuses when there are none.
   */
  private async ensureRoom(root: ResolvedRoot, adding: number): Promise<number> {
    const allowed = (await planLimits.of(this.db, root.serviceId)).webSpaceMb;
    if (allowed === null) return Number.MAX_SAFE_INTEGER;
    const used = await this.files.usage({ ...root.place, folder: '' });
    const room = allowed * 1024 * 1024 - used - adding;
    if (room < 0 || (adding === 0 && room === 0)) throw new QuotaError('files.error.quota');
    return room;
  }

  /**
   * The staged upload of this user into this folder under this name: a chunk at offset 0 starts
   * it over, a later one continues it (and must start where it ends).
   */
  private uploadKey(actor: Actor, root: ResolvedRoot, folder: string, name: string): string {
    const parts = [actor.userId, root.place.home, root.place.folder, folder, name];
    return createHash('sha256').update(parts.join('\u0000')).digest('hex');
  }

  async uploadStatus(actor: Actor, where: FilesRoot, folder: string, name: string): Promise<FilesUploadData> {
    const root = await this.root(actor, where, 'action');
    return this.files.uploaded(this.uploadKey(actor, root, folder, name));
  }

  async uploadChunk(
    actor: Actor,
    where: FilesRoot,
    target: { folder: string; name: string; size: number; offset: number },
    body: Readable,
  ): Promise<FilesUploadData> {
    const root = await this.root(actor, where, 'action');
    // Every chunk: the whole file must fit beside what the home holds now (the size is the one
    // announced when the upload started: the staging refuses another).
    await this.ensureRoom(root, target.size);
    const key = this.uploadKey(actor, root, target.folder, target.name);
    const received = await this.files.uploadChunk(
      root.place,
      { key, folder: target.folder, name: target.name, size: target.size },
      target.offset,
      body,
    );
    return { received, done: received >= target.size };
  }
}
