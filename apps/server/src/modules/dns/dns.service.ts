import type { DnsCreateParams, DnsListParams, DnsSaveParams } from '@panel247/contract/dns';
import type { DnsChangeActionParams, DnsChangeParams, DnsHistoryParams } from '@panel247/contract/dns-history';
import type { DnsImportAxfrParams, DnsImportParams } from '@panel247/contract/dns-import';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import { DigZoneTransfer, type ZoneTransfer } from '../../drivers/dns/zone-transfer.ts';
import type { SyncOptions } from '../../drivers/sync-options.ts';
import { type JobSender, NO_JOB_SENDER } from '../../jobs/job-sender.ts';
import type { Actor } from '../auth/actor.ts';
import { PermissionService } from '../permission/permission.service.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { type BackedUpRecord, DnsBackupService } from './dns-backup.service.ts';
import { DnsHistoryService } from './dns-history.service.ts';
import { DnsImportService } from './dns-import.service.ts';
import { DnsProviderService, type RecordCorrector } from './dns-provider.service.ts';
import { DnsRecordService } from './dns-records.service.ts';
import { DnsSyncService } from './dns-sync.service.ts';
import { type DnsSettings, ZoneChanges } from './zone-changes.ts';

export type { BackedUpRecord } from './dns-backup.service.ts';
export { nameServerOf } from './dns-import.service.ts';
export type { RecordCorrection, RecordCorrector } from './dns-provider.service.ts';
export type { RecordChange } from './dns-records.service.ts';
export type { DnsSettings } from './zone-changes.ts';

/** How long an explicit sync waits for its zone's job (a large zone, a slow server). */
const SYNC_WAIT_MS = 120_000;

export type { Changed, DriftReport } from './zone-publisher.ts';

/**
 * A service's DNS zone: who may read and change it, and what a valid record is. The panel
 * database is the source of truth; `ZonePublisher` brings each change to the DNS server (and
 * says what the user is told when the server refuses, is down or does not answer).
 *
 * One service per concern, sharing how a zone is changed (`ZoneChanges`); this class answers for
 * all of them, so that routes, the CLI, the seeds and other areas hold one DNS service.
 */
export class DnsService {
  readonly records: DnsRecordService;
  readonly imports: DnsImportService;
  readonly history: DnsHistoryService;
  readonly backups: DnsBackupService;
  readonly publishing: DnsSyncService;
  readonly provider: DnsProviderService;

  constructor(
    db: Db,
    driver: DnsDriver,
    permissions: PermissionService,
    settings: DnsSettings,
    now: () => number,
    work: { jobs: JobSender; changeMs: number; syncMs: number; recheckSeconds: number; landed?: WorkLanded },
    zoneTransfer: ZoneTransfer = new DigZoneTransfer(),
  ) {
    const changes = new ZoneChanges(db, driver, permissions, settings, now, work.jobs, work);
    this.records = new DnsRecordService(db, changes, now);
    this.imports = new DnsImportService(db, changes, zoneTransfer);
    this.history = new DnsHistoryService(db, changes);
    this.backups = new DnsBackupService(db, changes);
    this.publishing = new DnsSyncService(db, changes);
    this.provider = new DnsProviderService(db, changes);
  }

  // The records (DnsRecordService).
  list(actor: Actor, params: DnsListParams) {
    return this.records.list(actor, params);
  }
  get(actor: Actor, serviceId: number, recordId: number) {
    return this.records.get(actor, serviceId, recordId);
  }
  create(actor: Actor, params: DnsCreateParams) {
    return this.records.create(actor, params);
  }
  save(actor: Actor, params: DnsSaveParams) {
    return this.records.save(actor, params);
  }
  remove(actor: Actor, serviceId: number, recordId: number) {
    return this.records.remove(actor, serviceId, recordId);
  }
  restore(actor: Actor, serviceId: number) {
    return this.records.restore(actor, serviceId);
  }
  publishNow(actor: Actor, serviceId: number) {
    return this.records.publishNow(actor, serviceId);
  }
  removeAll(actor: Actor, serviceId: number) {
    return this.records.removeAll(actor, serviceId);
  }
  exportZone(actor: Actor, serviceId: number) {
    return this.records.exportZone(actor, serviceId);
  }

  // A zone file imported (DnsImportService).
  importPreview(actor: Actor, params: DnsImportParams) {
    return this.imports.importPreview(actor, params);
  }
  importApply(actor: Actor, params: DnsImportParams) {
    return this.imports.importApply(actor, params);
  }
  importOptions(actor: Actor, serviceId: number) {
    return this.imports.importOptions(actor, serviceId);
  }
  importAxfr(actor: Actor, params: DnsImportAxfrParams) {
    return this.imports.importAxfr(actor, params);
  }

  // The zone's history (DnsHistoryService).
  changeSets(actor: Actor, params: DnsHistoryParams) {
    return this.history.changeSets(actor, params);
  }
  changeSet(actor: Actor, params: DnsChangeParams) {
    return this.history.changeSet(actor, params);
  }
  revert(actor: Actor, params: DnsChangeActionParams) {
    return this.history.revert(actor, params);
  }
  restoreAt(actor: Actor, params: DnsChangeActionParams) {
    return this.history.restoreAt(actor, params);
  }
  exportAt(actor: Actor, params: DnsChangeActionParams) {
    return this.history.exportAt(actor, params);
  }

  // Backups (DnsBackupService).
  recordsForBackup(serviceId: number) {
    return this.backups.recordsForBackup(serviceId);
  }
  restoreFromBackup(serviceId: number, records: BackedUpRecord[]) {
    return this.backups.restoreFromBackup(serviceId, records);
  }

  // The DNS server kept in step with the database (DnsSyncService).
  sync(only: string | undefined, options: SyncOptions) {
    return this.publishing.sync(only, options);
  }
  /** Sends the job of every zone with changes still to publish (the republish round). */
  republish() {
    return this.publishing.republish();
  }
  /** Runs this instance's publishing of one zone now, as its job would (the zone's job kind's handler). */
  publishZone(zone: { serviceId: number; name: string }) {
    return this.publishing.publishZone(zone);
  }
  normaliseRRsetTtls() {
    return this.publishing.normaliseRRsetTtls();
  }

  // The provider's own changes, without an actor (DnsProviderService).
  zoneExists(serviceId: number) {
    return this.provider.zoneExists(serviceId);
  }
  ensureZoneOf(serviceId: number, reference: string, referencePunycode: string) {
    return this.provider.ensureZoneOf(serviceId, reference, referencePunycode);
  }
  get signsZones(): boolean {
    return this.provider.signsZones;
  }
  dsRecordsOf(serviceId: number, reference: string, referencePunycode: string) {
    return this.provider.dsRecordsOf(serviceId, reference, referencePunycode);
  }
  correctRecords(correct: RecordCorrector, options: { dryRun: boolean; serviceId?: number }) {
    return this.provider.correctRecords(correct, options);
  }
  addRecord(
    serviceId: number,
    reference: string,
    referencePunycode: string,
    input: { type: string; zona: string; value: string; ttl: number; priority: number },
  ) {
    return this.provider.addRecord(serviceId, reference, referencePunycode, input);
  }
  replaceOwnedTxt(
    service: { serviceId: number; reference: string; referencePunycode: string },
    zona: string,
    owned: (value: string) => boolean,
    values: string[],
  ) {
    return this.provider.replaceOwnedTxt(service, zona, owned, values);
  }
}

/**
 * The DNS service as configured (shared by the server, the CLI and the demo seed). `jobs` sends
 * the zones' publishing jobs; a process without (the seed) leaves them to the servers' round.
 */
export function createDnsService(
  db: Db,
  config: AppConfig,
  driver: DnsDriver,
  now: () => number,
  jobs: JobSender = NO_JOB_SENDER,
  permissions: PermissionService = new PermissionService(db),
  /** Told when a zone's changes moved on (the realtime channel). */
  landed?: WorkLanded,
): DnsService {
  return new DnsService(
    db,
    driver,
    permissions,
    {
      nameservers: config.dns.nameservers,
      defaultTtl: config.dns.defaultTtl,
      webIpv4: config.dns.webIpv4,
      webIpv6: config.dns.webIpv6,
      mailIpv4: config.dns.mailIpv4,
      webHost: config.dns.webHost,
      mailHost: config.dns.mailHost,
      databasesIpv4: config.dns.databasesIpv4,
      databasesHost: config.dns.databasesHost,
      spfInclude: config.dns.spfInclude,
      dmarcReport: config.dns.dmarcReport,
      templates: config.dns.defaultRecords,
      importAxfr: config.dns.importAxfr,
      history: { keep: config.dns.historyKeep, days: config.dns.historyDays },
    },
    now,
    {
      jobs,
      changeMs: config.dns.publishWaitSeconds * 1000,
      syncMs: SYNC_WAIT_MS,
      recheckSeconds: config.dns.republishSeconds,
      ...(landed ? { landed } : {}),
    },
  );
}
