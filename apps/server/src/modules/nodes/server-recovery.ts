import type { Db } from '../../db/database.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { JobEngine } from '../../jobs/job-engine.ts';
import type { RecordCorrector } from '../dns/dns-provider.service.ts';
import { nodesRepository } from './nodes.repository.ts';
import { MOVABLE_PARTS, type MovablePart, PART_MOVE_JOBS } from './part-move.jobs.ts';
import { placementsRepository } from './placements.repository.ts';
import { serverDone } from './server-done.ts';
import { type PartAddresses, partRecordsTo } from './service-move.ts';

/** A service as its backups name it (BackupService). */
interface BackedUpService {
  id: number;
  reference: string;
  domain: string;
}

export interface ServerRecoveryDeps {
  db: Db;
  /** Epoch seconds. */
  now: () => number;
  jobs: Pick<JobEngine, 'send' | 'find'>;
  /** The services' backups (BackupService): their newest snapshot, and a part of it put back where it now is. */
  backups: {
    serviceById(serviceId: number): Promise<BackedUpService>;
    latestSnapshot(serviceId: number): Promise<string | undefined>;
    restoreHeldBy(service: BackedUpService, snapshotId: string, roles: readonly MovablePart[]): Promise<void>;
  };
  /** The service's databases and users made on a server, empty, for their dumps (the node channel's `databases.prepare`). */
  prepareDatabases(node: string, serviceId: number): Promise<void>;
  /** The zone's records rewritten and published (DnsService.correctRecords). */
  correctRecords(correct: RecordCorrector, options: { dryRun: false; serviceId: number }): Promise<unknown[]>;
}

export interface RecoveryReport {
  lost: string;
  to: string;
  /** Services back on `to`: the parts it took, the snapshot they came from, records switched. */
  recovered: { domain: string; parts: MovablePart[]; snapshot: string; records: number }[];
  /** Services that could not be brought back (no backup, a server's refusal): still placed on `lost` unless switched. */
  failed: { domain: string; error: string }[];
}

/**
 * `panel node recover LOST --to SERVER`: a server that will not come back (its disk gone) has its
 * services' parts brought up on another server from their newest backups. The lost server is
 * drained (nothing new goes there); for each service it held, its parts there are placed on the
 * new server, which makes the web account and sites, the databases and their users, and then
 * gets the snapshot's files, mailboxes and database dumps put back by the backup's restore
 * (through its agent, as the service's own user); each part is proven served there as after a
 * move, and the records the panel owns switched to it. A service that fails is reported and the
 * others go on; the command may be run again. What changed since the snapshot is what a backup
 * cannot give back.
 */
export class ServerRecovery {
  constructor(private readonly deps: ServerRecoveryDeps) {}

  async recover(lost: string, to: string, options: { waitMs: number }): Promise<RecoveryReport> {
    const { db, now } = this.deps;
    if (lost === to) throw new ConflictError('node.error.move_same');
    const [from, target] = await Promise.all([nodesRepository.byName(db, lost), nodesRepository.byName(db, to)]);
    if (!from || !target) throw new NotFoundError();
    const held = await placementsRepository.onNode(db, lost);
    const roles = new Set(target.roles.split(','));
    for (const { role } of held)
      if (!roles.has(role)) throw new ConflictError('node.error.pin_role', { node: to, role });
    await nodesRepository.setState(db, lost, 'draining');
    const addresses = (row: typeof from): PartAddresses => ({ ipv4: row.ipv4, ipv6: row.ipv6, host: row.host });
    const report: RecoveryReport = { lost, to, recovered: [], failed: [] };
    const byService = new Map<number, MovablePart[]>();
    for (const { service_id, role } of held) byService.set(service_id, [...(byService.get(service_id) ?? []), role]);
    for (const [serviceId, parts] of byService) {
      const service = await this.deps.backups.serviceById(serviceId);
      try {
        const snapshot = await this.deps.backups.latestSnapshot(serviceId);
        if (!snapshot) throw new Error('no backup of it');
        for (const part of parts) await placementsRepository.setNode(db, serviceId, part, to, now());
        const payload = { serviceId, domain: service.domain };
        const served = (part: MovablePart) =>
          serverDone(this.deps.jobs, PART_MOVE_JOBS[part].serve, payload, options.waitMs, `${to}'s ${part}`);
        // what the restore writes into: the web account (and its home), the empty databases
        if (parts.includes('web')) await served('web');
        if (parts.includes('databases')) await this.deps.prepareDatabases(to, serviceId);
        await this.deps.backups.restoreHeldBy(service, snapshot, parts);
        let records = 0;
        for (const part of MOVABLE_PARTS.filter((one) => parts.includes(one))) {
          await served(part);
          const switched = await this.deps.correctRecords(partRecordsTo(part, addresses(from), addresses(target)), {
            dryRun: false,
            serviceId,
          });
          records += switched.length;
        }
        report.recovered.push({ domain: service.domain, parts, snapshot, records });
      } catch (error) {
        report.failed.push({ domain: service.domain, error: (error as Error).message ?? String(error) });
      }
    }
    return report;
  }
}
