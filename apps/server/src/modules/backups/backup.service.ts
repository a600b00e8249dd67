import path from 'node:path';
import { isFilePath } from '@panel247/contract/files';
import type { Db } from '../../db/database.ts';
import type { BackupFiles } from '../../drivers/backups/backup-files.ts';
import type { BackupSnapshot, ResticDriver, Retention } from '../../drivers/backups/restic.driver.ts';
import type { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { FieldErrors, NotFoundError } from '../../errors.ts';
import type { DdbbService } from '../ddbb/ddbb.service.ts';
import type { BackedUpRecord, DnsService } from '../dns/dns.service.ts';
import { backupsRepository } from './backups.repository.ts';

export interface BackupSettings {
  /** Where maildirs live: <root>/<domain>/<local part>. */
  mailRoot: string;
  retention: Retention;
  /** The hosting user, owner of restored service files. */
  owner: { uid: number; gid: number };
}

interface Service {
  id: number;
  reference: string;
  domain: string;
}

/** What one run backed up, per service. */
export interface BackupRun {
  serviceId: number;
  reference: string;
  snapshot: BackupSnapshot;
}

/** What a restore puts back: the service's files (or one path of them), a mailbox, a database, the zone. */
export type RestoreTarget =
  | { kind: 'files'; path: string; toFolder?: string | undefined }
  | { kind: 'mailbox'; localPart: string }
  | { kind: 'database'; name: string }
  | { kind: 'dns' };

const tag = (serviceId: number) => `service:${serviceId}`;

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
    private readonly restic: ResticDriver,
    private readonly files: BackupFiles,
    private readonly homes: ServiceHomes,
    private readonly ddbb: DdbbService,
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

  /** Backs up each service (all, or the one named), one snapshot each; a stale lock of a killed run goes first. */
  async run(reference?: string): Promise<BackupRun[]> {
    await this.restic.ensureRepository();
    await this.restic.unlock();
    const runs: BackupRun[] = [];
    for (const service of await this.services(reference)) runs.push(await this.backupService(service));
    return runs;
  }

  private async backupService(service: Service): Promise<BackupRun> {
    const staging = await this.files.staging(service.id);
    try {
      for (const database of await this.ddbb.forBackup(service.id)) {
        await this.files.writeStream(path.join(staging, 'databases', `${database.name}.sql`), await database.dump());
      }
      const records = await this.dns.recordsForBackup(service.id);
      if (records) await this.files.writeJson(path.join(staging, 'dns.json'), records);
      await this.files.writeJson(path.join(staging, 'settings.json'), {
        service: { id: service.id, reference: service.reference },
        ...(await backupsRepository.settings(this.db, service.id)),
      });
      const home = this.homes.home(service.domain);
      const paths = [staging];
      if (await this.files.exists(home)) paths.push(home);
      if (await this.files.exists(this.mailFolder(service.domain))) paths.push(this.mailFolder(service.domain));
      const snapshot = await this.restic.backup(paths, [tag(service.id)]);
      return { serviceId: service.id, reference: service.reference, snapshot };
    } finally {
      // The dumps are in the repository now; the staging copy would only take disk space.
      await this.files.clear(staging);
    }
  }

  async list(reference: string): Promise<BackupSnapshot[]> {
    const [service] = await this.services(reference);
    await this.restic.ensureRepository();
    return this.restic.snapshots([tag((service as Service).id)]);
  }

  /** One of the service's snapshots; another service's (or an unknown) id is not found. */
  private async snapshotOf(service: Service, snapshotId: string): Promise<BackupSnapshot> {
    const found = (await this.restic.snapshots([tag(service.id)])).find(
      (snapshot) => snapshotId.length >= 8 && snapshot.id.startsWith(snapshotId),
    );
    if (!found) throw new NotFoundError('backup.error.snapshot');
    return found;
  }

  async restore(reference: string, snapshotId: string, target: RestoreTarget): Promise<void> {
    const [service] = await this.services(reference);
    const snapshot = await this.snapshotOf(service as Service, snapshotId);
    const work = await this.files.restoreDir();
    try {
      await this.restoreInto(service as Service, snapshot, target, work);
    } finally {
      await this.files.clear(work);
    }
  }

  private async restoreInto(service: Service, snapshot: BackupSnapshot, target: RestoreTarget, work: string) {
    const staging = this.files.stagingPath(service.id);
    const unpacked = async (source: string) => {
      await this.restic.restore(snapshot.id, [source], work);
      const restored = path.join(work, source);
      if (!(await this.files.exists(restored))) throw new NotFoundError('backup.error.not_in_snapshot');
      return restored;
    };
    switch (target.kind) {
      case 'files': {
        if (!isFilePath(target.path)) throw FieldErrors.one('path', 'files.error.path');
        const home = this.homes.home(service.domain);
        const restored = await unpacked(path.join(home, target.path));
        // Into a new folder (made like an FTP account's, checked against links out of the home),
        // or over what is there now.
        const destination = target.toFolder
          ? await this.homes.prepare(service.domain, target.toFolder, 'toFolder')
          : path.join(home, target.path);
        const into =
          target.toFolder && target.path !== '' ? path.join(destination, path.basename(target.path)) : destination;
        await this.files.copyInto(restored, into, this.settings.owner);
        return;
      }
      case 'mailbox': {
        if (!/^[a-z0-9._+-]{1,64}$/.test(target.localPart)) throw FieldErrors.one('mailbox', 'backup.error.mailbox');
        const folder = path.join(this.mailFolder(service.domain), target.localPart);
        const restored = await unpacked(folder);
        await this.files.copyInto(restored, folder, await this.files.ownerOf(this.settings.mailRoot));
        return;
      }
      case 'database': {
        if (!/^[a-z0-9_]{1,64}$/.test(target.name)) throw FieldErrors.one('database', 'backup.error.database');
        const restored = await unpacked(path.join(staging, 'databases', `${target.name}.sql`));
        await this.ddbb.restoreFromBackup(service.id, target.name, this.files.read(restored));
        return;
      }
      case 'dns': {
        const restored = await unpacked(path.join(staging, 'dns.json'));
        await this.dns.restoreFromBackup(service.id, await this.files.readJson<BackedUpRecord[]>(restored));
        return;
      }
    }
  }

  /** The retention applied to every service's snapshots, and the data nothing needs removed. */
  async prune(): Promise<void> {
    await this.restic.ensureRepository();
    await this.restic.unlock();
    await this.restic.forget([], this.settings.retention);
  }

  async check(): Promise<string> {
    await this.restic.ensureRepository();
    return this.restic.check();
  }
}
