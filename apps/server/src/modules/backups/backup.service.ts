import path from 'node:path';
import type { Readable } from 'node:stream';
import { type BackupHolds, backupHoldsSchema } from '@panel247/contract/backups';
import { isFileName, isFilePath } from '@panel247/contract/files';
import type { Db } from '../../db/database.ts';
import type { BackupFiles } from '../../drivers/backups/backup-files.ts';
import type { BackupSnapshot, ResticDriver, Retention } from '../../drivers/backups/restic.driver.ts';
import type { ResticRepositories } from '../../drivers/backups/restic-repositories.ts';
import type { DatabaseFingerprint } from '../../drivers/databases/databases.driver.ts';
import type { FileOwner } from '../../drivers/files/confined/protocol.ts';
import type { ServiceFiles } from '../../drivers/files/service-files.ts';
import type { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { AppError, FieldErrors, NotFoundError } from '../../errors.ts';
import type { DatabasesService } from '../databases/databases.service.ts';
import type { BackedUpRecord, DnsService } from '../dns/dns.service.ts';
import { ensureBackupRoom } from './backup-room.ts';
import { backupsRepository } from './backups.repository.ts';

export interface BackupSettings {
  /** Where maildirs live: <root>/<domain>/<local part>. */
  mailRoot: string;
  retention: Retention;
  /** Whose rights a service's files are restored with (see FilesService). */
  ownerOf: (serviceId: number) => Promise<FileOwner | undefined>;
}

export interface Service {
  id: number;
  reference: string;
  domain: string;
}

/**
 * A service's home and mail folder when another machine holds them (parts-elsewhere.ts): the
 * backup reaches them through that server's agent.
 */
export interface PartsElsewhere {
  /** Brings `into` up to date with the part's folder and answers true; false when it is on this machine. */
  mirror(part: 'web' | 'mail', service: Service, into: string): Promise<boolean>;
  /**
   * Writes a restored folder or file (`source`, here) at `relative` in the service's mail folder
   * on its server, over what is there; false when the mail folder is on this machine.
   */
  restoreMail(service: Service, relative: string, source: string, top: 'file' | 'folder'): Promise<boolean>;
}

/** Every part on this machine (the CLI and tests without servers). */
const ALL_HERE: PartsElsewhere = { mirror: async () => false, restoreMail: async () => false };

/** What one run backed up, per service (or why it did not). */
export interface BackupRun {
  serviceId: number;
  reference: string;
  snapshot: BackupSnapshot | null;
  /** The message key of a service left out (over its quota, a daemon that failed). */
  error?: string;
}

/** Where a backup or restore is, for the job the customer follows. */
export type BackupStep = 'dumping' | 'saving' | 'fetching' | 'restoring';
type OnStep = (step: BackupStep) => Promise<void>;
const noSteps: OnStep = async () => {};

/**
 * What a restore puts back: the whole service (every part the snapshot holds), its files (or one
 * path of them), a mailbox, a database, the zone.
 */
export type RestoreTarget =
  | { kind: 'service' }
  | { kind: 'files'; path: string; toFolder?: string | undefined }
  /** A mailbox, or one folder of it (a maildir folder such as `.Sent`). */
  | { kind: 'mailbox'; localPart: string; folder?: string | undefined }
  | { kind: 'database'; name: string; intoNew?: boolean | undefined }
  | { kind: 'dns' };

const tag = (serviceId: number) => `service:${serviceId}`;

async function prepare(restic: ResticDriver): Promise<void> {
  await restic.ensureRepository();
  await restic.unlock();
}

/**
 * Backups of hosting services with restic: one snapshot per service and run holding the
 * service's home, its mail folder, and a staging folder with what is not a file already — each
 * database's dump, the zone's records and the panel's settings for the service (no secret in
 * clear). A restore takes one part of a snapshot back: files to their place or into a new folder,
 * a mailbox, a database, the zone.
 */
export class BackupService {
  constructor(
    private readonly db: Db,
    private readonly repositories: ResticRepositories,
    private readonly files: BackupFiles,
    private readonly homes: ServiceHomes,
    /** The homes' files, written through the confined worker. */
    private readonly homeFiles: ServiceFiles,
    private readonly databases: DatabasesService,
    private readonly dns: DnsService,
    private readonly settings: BackupSettings,
    private readonly elsewhere: PartsElsewhere = ALL_HERE,
  ) {}

  async services(reference?: string): Promise<Service[]> {
    const rows = await backupsRepository.services(this.db, reference ? { reference } : undefined);
    if (reference && rows.length === 0) throw new NotFoundError();
    return rows.map((row) => ({ id: row.id, reference: row.reference, domain: row.reference_punycode }));
  }

  private mailFolder(domain: string): string {
    return path.join(this.settings.mailRoot, domain);
  }

  /**
   * Backs up each service (all, or the one named), one snapshot each; a stale lock of a killed
   * run goes first. A service that fails (over its quota, a daemon down) is reported and the
   * others still run.
   */
  async run(reference?: string): Promise<BackupRun[]> {
    const services = await this.services(reference);
    for (const restic of this.repositories.ofAll(services.map((service) => service.id))) await prepare(restic);
    const runs: BackupRun[] = [];
    for (const service of services) {
      try {
        runs.push({ serviceId: service.id, reference: service.reference, snapshot: await this.backupService(service) });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        runs.push({ serviceId: service.id, reference: service.reference, snapshot: null, error: error.messageKey });
      }
    }
    return runs;
  }

  /** The service's repository made (first time) and freed of a killed run's stale lock. */
  async prepareRepository(service: Service): Promise<void> {
    await prepare(this.repositories.of(service.id));
  }

  /** One service's snapshot, recorded with what it holds; refused once its backups fill the quota. */
  async backupService(service: Service, onStep: OnStep = noSteps): Promise<BackupSnapshot> {
    await ensureBackupRoom(this.db, service.id);
    return this.snapshot(service, onStep);
  }

  /**
   * A terminated service's last backup, whatever room its plan left: made, then its only
   * snapshot (the older ones let go), kept until `releaseTerminated` lets it go too.
   */
  async lastBackup(service: Service): Promise<BackupSnapshot> {
    const restic = this.repositories.of(service.id);
    await prepare(restic);
    const last = await this.snapshot(service, noSteps);
    const older = (await restic.snapshots([tag(service.id)])).filter((one) => !one.id.startsWith(last.id));
    await restic.forgetSnapshots(older.map((one) => one.id));
    // its staging folder (the latest dumps) is in the snapshot: nothing needs it any more
    await this.files.clear(this.files.stagingPath(service.id));
    return last;
  }

  /** A terminated service's kept backup let go: every snapshot of it forgotten, and the data only it needed. */
  async releaseTerminated(serviceId: number): Promise<void> {
    const restic = this.repositories.of(serviceId);
    await prepare(restic);
    await restic.forgetSnapshots((await restic.snapshots([tag(serviceId)])).map((one) => one.id));
  }

  private async snapshot(service: Service, onStep: OnStep): Promise<BackupSnapshot> {
    const toDump = await this.databases.forBackup(service.id);
    const databases = toDump.map((database) => database.name);
    const staging = await this.files.staging(service.id, databases);
    await onStep('dumping');
    for (const database of toDump) await this.dumpIfChanged(path.join(staging, 'databases'), database);
    const records = await this.dns.recordsForBackup(service.id);
    // the staging folder stays between runs: a zone gone since the last one must not linger in it
    if (records) await this.files.writeJson(path.join(staging, 'dns.json'), records);
    else await this.files.clear(path.join(staging, 'dns.json'));
    await this.files.writeJson(path.join(staging, 'settings.json'), {
      service: { id: service.id, reference: service.reference },
      ...(await backupsRepository.settings(this.db, service.id)),
    });
    // the staging folder is backed up whole: a part held elsewhere is its mirror there
    const paths = [staging];
    const filesFrom = await this.partFolder('web', service, this.homes.home(service.domain), staging, paths);
    const files = await this.files.exists(filesFrom.folder);
    const mailFrom = await this.partFolder('mail', service, this.mailFolder(service.domain), staging, paths);
    const mailboxes = await this.files.folders(mailFrom.folder);
    const mailFolders: BackupHolds['mailFolders'] = {};
    for (const localPart of mailboxes) {
      mailFolders[localPart] = await this.files.maildirFolders(path.join(mailFrom.folder, localPart));
    }
    await onStep('saving');
    const snapshot = await this.repositories.of(service.id).backup(paths, [tag(service.id)]);
    const holds: BackupHolds = {
      files,
      mailboxes,
      mailFolders,
      databases,
      dns: records !== undefined,
      ...(filesFrom.mirrored ? { filesFrom: filesFrom.folder } : {}),
      ...(mailFrom.mirrored ? { mailFrom: mailFrom.folder } : {}),
    };
    await backupsRepository.insertSnapshot(this.db, {
      service_id: service.id,
      snapshot_id: snapshot.id,
      created_at: snapshot.time,
      size_bytes: snapshot.sizeBytes,
      added_bytes: snapshot.addedBytes,
      holds: JSON.stringify(holds),
    });
    return snapshot;
  }

  /**
   * Where a backup finds a part's folder: its own path here (added to `paths` when it exists),
   * or, when another server holds it, its mirror in the staging folder, brought up to date. A
   * mirror left from when the part was elsewhere goes once it is here again.
   */
  private async partFolder(
    part: 'web' | 'mail',
    service: Service,
    here: string,
    staging: string,
    paths: string[],
  ): Promise<{ folder: string; mirrored: boolean }> {
    const mirror = path.join(staging, part === 'web' ? 'home' : 'mail');
    if (await this.elsewhere.mirror(part, service, mirror)) return { folder: mirror, mirrored: true };
    await this.files.clear(mirror);
    await this.files.clear(`${mirror}.since.json`);
    if (await this.files.exists(here)) paths.push(here);
    return { folder: here, mirrored: false };
  }

  /**
   * A database's dump in the staging folder, made again only when the database may have changed
   * since the dump there was made: its fingerprint differs, the server cannot tell, or a change
   * is as recent as the earlier fingerprint (its clock counts in whole seconds).
   */
  private async dumpIfChanged(
    folder: string,
    database: { name: string; dump: () => Promise<Readable>; fingerprint: () => Promise<DatabaseFingerprint | null> },
  ): Promise<void> {
    const dump = path.join(folder, `${database.name}.sql`);
    const state = path.join(folder, `${database.name}.state.json`);
    const now = await database.fingerprint();
    const before = await this.files.readJsonOr<DatabaseFingerprint | null>(state, null);
    const unchanged =
      now !== null &&
      before !== null &&
      now.value === before.value &&
      now.newestChange < before.takenAt - 1 &&
      (await this.files.exists(dump));
    if (unchanged) return;
    await this.files.clear(state);
    await this.files.replaceWith(dump, await database.dump());
    if (now) await this.files.writeJson(state, now);
  }

  async serviceById(serviceId: number): Promise<Service> {
    const [row] = await backupsRepository.services(this.db, { id: serviceId });
    if (!row) throw new NotFoundError();
    return { id: row.id, reference: row.reference, domain: row.reference_punycode };
  }

  async list(reference: string): Promise<BackupSnapshot[]> {
    const [service] = await this.services(reference);
    const restic = this.repositories.of((service as Service).id);
    await restic.ensureRepository();
    return restic.snapshots([tag((service as Service).id)]);
  }

  /** The service's newest snapshot the panel recorded; undefined: it has none. */
  async latestSnapshot(serviceId: number): Promise<string | undefined> {
    const [newest] = await backupsRepository.snapshots(this.db, serviceId);
    return newest?.snapshot_id;
  }

  /**
   * The parts of a snapshot a server held put back where the service's parts are now: its files
   * (`web`), its mailboxes (`mail`), its databases (`databases`); never its zone, which no server
   * lost. A lost server's services brought back on another (ServerRecovery).
   */
  async restoreHeldBy(service: Service, snapshotId: string, roles: readonly ('web' | 'mail' | 'databases')[]) {
    const snapshot = await this.snapshotOf(service, snapshotId);
    const holds = await this.holdsOf(service, snapshot);
    if (!holds) throw new NotFoundError('backup.error.snapshot');
    const kinds = { web: 'files', mail: 'mailbox', databases: 'database' } as const;
    const wanted = new Set<string>(roles.map((role) => kinds[role]));
    const parts = partsOf(holds).filter((one) => wanted.has(one.kind));
    await this.restoreEach(service, snapshot, holds, parts, noSteps);
  }

  /** One of the service's snapshots; another service's (or an unknown) id is not found. */
  private async snapshotOf(service: Service, snapshotId: string): Promise<BackupSnapshot> {
    const found = (await this.repositories.of(service.id).snapshots([tag(service.id)])).find(
      (snapshot) => snapshotId.length >= 8 && snapshot.id.startsWith(snapshotId),
    );
    if (!found) throw new NotFoundError('backup.error.snapshot');
    return found;
  }

  async restore(reference: string, snapshotId: string, target: RestoreTarget): Promise<void> {
    const [service] = await this.services(reference);
    await this.restorePart(service as Service, snapshotId, target);
  }

  /**
   * Puts one part of one of the service's snapshots back. Safe to repeat: it unpacks into a
   * folder of its own and copies over what is there, so a restore cut short is simply run again.
   */
  async restorePart(service: Service, snapshotId: string, target: RestoreTarget, onStep: OnStep = noSteps) {
    const snapshot = await this.snapshotOf(service, snapshotId);
    const holds = await this.holdsOf(service, snapshot);
    if (target.kind === 'service' && !holds) throw new NotFoundError('backup.error.snapshot');
    const parts = target.kind === 'service' ? partsOf(holds as BackupHolds) : [target];
    await this.restoreEach(service, snapshot, holds, parts, onStep);
  }

  /** Each part, unpacked into a folder of its own that goes afterwards. */
  private async restoreEach(
    service: Service,
    snapshot: BackupSnapshot,
    holds: BackupHolds | undefined,
    parts: Exclude<RestoreTarget, { kind: 'service' }>[],
    onStep: OnStep,
  ): Promise<void> {
    for (const part of parts) {
      const work = await this.files.restoreDir();
      try {
        await this.restoreInto(service, snapshot, holds, part, work, onStep);
      } finally {
        await this.files.clear(work);
      }
    }
  }

  /**
   * What the panel recorded of a snapshot; none for one it has no record of (made outside it),
   * whose parts can still be restored one by one from their own paths.
   */
  private async holdsOf(service: Service, snapshot: BackupSnapshot): Promise<BackupHolds | undefined> {
    const row = (await backupsRepository.snapshots(this.db, service.id)).find(
      (recorded) => snapshot.id.startsWith(recorded.snapshot_id) || recorded.snapshot_id.startsWith(snapshot.id),
    );
    return row && backupHoldsSchema.parse(JSON.parse(row.holds));
  }

  private async restoreInto(
    service: Service,
    snapshot: BackupSnapshot,
    holds: BackupHolds | undefined,
    target: Exclude<RestoreTarget, { kind: 'service' }>,
    work: string,
    onStep: OnStep,
  ) {
    const staging = this.files.stagingPath(service.id);
    const unpacked = async (source: string) => {
      await onStep('fetching');
      await this.repositories.of(service.id).restore(snapshot.id, [source], work);
      await onStep('restoring');
      const restored = path.join(work, source);
      if (!(await this.files.exists(restored))) throw new NotFoundError('backup.error.not_in_snapshot');
      return restored;
    };
    switch (target.kind) {
      case 'files': {
        if (!isFilePath(target.path)) throw FieldErrors.one('path', 'files.error.path');
        if (target.toFolder !== undefined && !isFilePath(target.toFolder))
          throw FieldErrors.one('toFolder', 'files.error.path');
        const home = this.homes.home(service.domain);
        const restored = await unpacked(path.join(holds?.filesFrom ?? home, target.path));
        // Into a new folder, or over what is there now; either way written by the service's user,
        // replacing whatever link stands in the way since the backup instead of following it.
        const name = path.basename(target.path);
        const destination = target.toFolder ? [target.toFolder, name].filter(Boolean).join('/') : target.path;
        const top = (await this.files.isFolder(restored)) ? 'folder' : 'file';
        const place = { home, folder: '', owner: await this.settings.ownerOf(service.id) };
        await this.homeFiles.restore(place, destination, restored, top);
        return;
      }
      case 'mailbox': {
        if (!/^[a-z0-9._+-]{1,64}$/.test(target.localPart)) throw FieldErrors.one('mailbox', 'backup.error.mailbox');
        // a Maildir++ folder (`.Sent`): never the inbox's own cur/new/tmp, never a way out
        if (target.folder && !(isFileName(target.folder) && /^\.[^.]/.test(target.folder)))
          throw FieldErrors.one('mailFolder', 'backup.error.mail_folder');
        const relative = target.folder ? path.join(target.localPart, 'Maildir', target.folder) : target.localPart;
        const restored = await unpacked(path.join(holds?.mailFrom ?? this.mailFolder(service.domain), relative));
        // written where the mail is now: its server's mail folder, or this machine's
        if (await this.elsewhere.restoreMail(service, relative, restored, 'folder')) return;
        const folder = path.join(this.mailFolder(service.domain), relative);
        await this.files.copyInto(restored, folder, await this.files.ownerOf(this.settings.mailRoot));
        return;
      }
      case 'database': {
        if (!/^[a-z0-9_]{1,64}$/.test(target.name)) throw FieldErrors.one('database', 'backup.error.database');
        const restored = await unpacked(path.join(staging, 'databases', `${target.name}.sql`));
        if (target.intoNew) await this.databases.restoreIntoNew(service.id, service.domain, this.files.read(restored));
        else await this.databases.restoreFromBackup(service.id, target.name, this.files.read(restored));
        return;
      }
      case 'dns': {
        const restored = await unpacked(path.join(staging, 'dns.json'));
        await this.dns.restoreFromBackup(service.id, await this.files.readJson<BackedUpRecord[]>(restored));
        return;
      }
    }
  }

  /**
   * The retention applied to every service's snapshots and the data nothing needs removed (a
   * terminated service's last backup too, once kept its days); the panel's record of snapshots
   * follows what the repository still holds.
   */
  async prune(nowSeconds = Math.floor(Date.now() / 1000)): Promise<void> {
    // a terminated service's last backup, once its days are over
    for (const { service_id } of await backupsRepository.expiredTerminations(this.db, nowSeconds)) {
      await this.releaseTerminated(service_id);
      await backupsRepository.markTerminationBackupReleased(this.db, service_id, nowSeconds);
    }
    const kept: string[] = [];
    const services = await this.services();
    for (const restic of this.repositories.ofAll(services.map((service) => service.id))) {
      await prepare(restic);
      await restic.forget([], this.settings.retention);
      for (const snapshot of await restic.snapshots([])) kept.push(snapshot.id);
    }
    // the panel records the short id restic's backup answers: a kept snapshot's full id starts with it
    const gone = (await backupsRepository.allSnapshotIds(this.db)).filter(
      (row) => !kept.some((id) => id.startsWith(row.snapshot_id)),
    );
    await backupsRepository.deleteSnapshots(
      this.db,
      gone.map((row) => row.id),
    );
  }

  /**
   * The day whose daily run this call takes, once its time has come: the round asks on every
   * occurrence, and only one call across instances gets a day (a row per day); else undefined.
   */
  async takeDailyRun(dailyAt: string, nowSeconds: number): Promise<string | undefined> {
    if (dailyAt === '') return undefined;
    const now = new Date(nowSeconds * 1000);
    const day = now.toISOString().slice(0, 10);
    if (now.toISOString().slice(11, 16) < dailyAt) return undefined;
    return (await backupsRepository.takeDay(this.db, day, nowSeconds)) ? day : undefined;
  }

  /** The daily run's work (the node's BACKUP_DAILY job): every service backed up, then the retention applied. */
  async runAll(): Promise<BackupRun[]> {
    const runs = await this.run();
    await this.prune();
    return runs;
  }

  async check(): Promise<string> {
    const reports: string[] = [];
    const services = await this.services();
    for (const restic of this.repositories.ofAll(services.map((service) => service.id))) {
      await restic.ensureRepository();
      reports.push(await restic.check());
    }
    return reports.join('\n');
  }
}

/** Every part a snapshot holds: the whole service's restore. */
function partsOf(holds: BackupHolds): Exclude<RestoreTarget, { kind: 'service' }>[] {
  return [
    ...(holds.files ? [{ kind: 'files' as const, path: '' }] : []),
    ...holds.mailboxes.map((localPart) => ({ kind: 'mailbox' as const, localPart })),
    ...holds.databases.map((name) => ({ kind: 'database' as const, name })),
    ...(holds.dns ? [{ kind: 'dns' as const }] : []),
  ];
}
