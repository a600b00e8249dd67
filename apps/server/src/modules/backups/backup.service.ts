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
import { AppError, FieldErrors, NotFoundError, QuotaError } from '../../errors.ts';
import type { DatabasesService } from '../databases/databases.service.ts';
import type { BackedUpRecord, DnsService } from '../dns/dns.service.ts';
import { backupsRepository } from './backups.repository.ts';

export interface BackupSettings {
  /** Where maildirs live: <root>/<domain>/<local part>. */
  mailRoot: string;
  /** The plan's room for one service's backups (the data its snapshots added), in bytes. */
  quotaBytes: number;
  retention: Retention;
  /** Whose rights a service's files are restored with (see FilesService). */
  ownerOf: (serviceId: number) => Promise<FileOwner | undefined>;
}

export interface Service {
  id: number;
  reference: string;
  domain: string;
}

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
    if ((await backupsRepository.usage(this.db, service.id)) >= this.settings.quotaBytes) {
      throw new QuotaError('backup.error.quota');
    }
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
    const home = this.homes.home(service.domain);
    const paths = [staging];
    const files = await this.files.exists(home);
    if (files) paths.push(home);
    const mailboxes = await this.files.folders(this.mailFolder(service.domain));
    if (mailboxes.length > 0) paths.push(this.mailFolder(service.domain));
    const mailFolders: BackupHolds['mailFolders'] = {};
    for (const localPart of mailboxes) {
      mailFolders[localPart] = await this.files.maildirFolders(path.join(this.mailFolder(service.domain), localPart));
    }
    await onStep('saving');
    const snapshot = await this.repositories.of(service.id).backup(paths, [tag(service.id)]);
    const holds: BackupHolds = { files, mailboxes, mailFolders, databases, dns: records !== undefined };
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
    const parts = target.kind === 'service' ? await this.partsOf(service, snapshot) : [target];
    for (const part of parts) {
      const work = await this.files.restoreDir();
      try {
        await this.restoreInto(service, snapshot, part, work, onStep);
      } finally {
        await this.files.clear(work);
      }
    }
  }

  /** Every part a snapshot holds, as the panel recorded it: the whole service's restore. */
  private async partsOf(
    service: Service,
    snapshot: BackupSnapshot,
  ): Promise<Exclude<RestoreTarget, { kind: 'service' }>[]> {
    const row = (await backupsRepository.snapshots(this.db, service.id)).find(
      (recorded) => snapshot.id.startsWith(recorded.snapshot_id) || recorded.snapshot_id.startsWith(snapshot.id),
    );
    if (!row) throw new NotFoundError('backup.error.snapshot');
    const holds = backupHoldsSchema.parse(JSON.parse(row.holds));
    return [
      ...(holds.files ? [{ kind: 'files' as const, path: '' }] : []),
      ...holds.mailboxes.map((localPart) => ({ kind: 'mailbox' as const, localPart })),
      ...holds.databases.map((name) => ({ kind: 'database' as const, name })),
      ...(holds.dns ? [{ kind: 'dns' as const }] : []),
    ];
  }

  private async restoreInto(
    service: Service,
    snapshot: BackupSnapshot,
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
        const restored = await unpacked(path.join(home, target.path));
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
        const mailbox = path.join(this.mailFolder(service.domain), target.localPart);
        const folder = target.folder ? path.join(mailbox, 'Maildir', target.folder) : mailbox;
        const restored = await unpacked(folder);
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
   * The retention applied to every service's snapshots and the data nothing needs removed; the
   * panel's record of snapshots follows what the repository still holds.
   */
  async prune(): Promise<void> {
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
