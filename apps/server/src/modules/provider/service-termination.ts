import type { ProviderTermination } from '@panel247/contract/provider';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import type { FileOwner } from '../../drivers/files/confined/protocol.ts';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';
import { queueOfServer } from '../../jobs/placed-jobs.ts';
import type { BackupService } from '../backups/backup.service.ts';
import { MOVABLE_PARTS, type MovablePart } from '../nodes/part-move.jobs.ts';
import { PART_REMOVAL_JOBS, type ServiceRemoval, serviceRemoval } from '../nodes/part-removal.jobs.ts';
import { UNNAMED_NODE } from '../nodes/placement-roles.ts';
import { serverDone } from '../nodes/server-done.ts';
import type { ProviderIdempotency } from './provider-idempotency.ts';
import { serviceTerminationsRepository as repository, type TerminationRow } from './service-terminations.repository.ts';

/**
 * A terminated service's work, on the control plane's machine (where backups run): the last
 * backup, the service's rows deleted, then each daemon's copy removed. Once per service; retried
 * with backoff (a daemon down, a server away), and each step is safe to run again.
 */
export const TERMINATE_SERVICE = defineJob({
  name: 'services.terminate',
  payload: z.object({ serviceId: z.number().int().positive() }),
  policy: 'once',
  key: (termination) => String(termination.serviceId),
  retry: { limit: 6, delaySeconds: 10, backoff: true, maxDelaySeconds: 600 },
  expireSeconds: 6 * 3600,
});

/** What the termination removes, recorded with the deletion of the rows that said so. */
const terminationPlan = z.object({
  /** The server that held each part ('' : the control plane's machine). */
  nodes: z.record(z.enum(MOVABLE_PARTS), z.string()),
  /** The zone on the DNS server, or null when the service had none. */
  zone: z.string().nullable(),
  service: serviceRemoval,
});
type TerminationPlan = z.infer<typeof terminationPlan>;

export interface TerminationPorts {
  db: Db;
  now: () => number;
  jobs: Pick<JobEngine, 'send' | 'find'>;
  /** Built at the first termination (the agent builds its area services lazily). */
  backups: () => Promise<Pick<BackupService, 'lastBackup'>>;
  dns: Pick<DnsDriver, 'removeZone'>;
  /** Who the service's home's files belong to (undefined: the panel's own rights). */
  ownerOf: (serviceId: number) => Promise<FileOwner | undefined>;
  idempotency: Pick<ProviderIdempotency, 'forget'>;
  /** Days the last backup is kept; 0: none is made. */
  keepDays: number;
  /** How long the job waits for one server's removal before it tries again later. */
  serverWaitMs: number;
}

const WAIT_POLL_MS = 100;

/** A termination as the provider's systems see it. */
export function terminationView(row: TerminationRow): ProviderTermination {
  return {
    domain: row.domain,
    state: row.state === 'done' ? 'terminated' : row.state === 'failed' ? 'failed' : 'terminating',
    lastBackup: row.snapshot_id,
    keptUntil: row.keep_until === null || row.snapshot_id === '' ? null : Number(row.keep_until),
    error: row.error,
  };
}

export class ServiceTerminations {
  constructor(private readonly ports: TerminationPorts) {}

  /** Records the service's termination (once) and sends its job; answers its row. */
  async start(service: { id: number; domain: string; accountId: number }): Promise<TerminationRow> {
    const { db, now, jobs } = this.ports;
    await repository.start(
      db,
      { service_id: service.id, domain: service.domain, account_id: service.accountId },
      now(),
    );
    const row = (await repository.get(db, service.id)) as TerminationRow;
    // a failed one is tried again from where it stopped
    if (row.state === 'failed') await repository.update(db, service.id, { state: 'running', error: '' }, now());
    if (row.state !== 'done') await jobs.send(TERMINATE_SERVICE, { serviceId: service.id });
    return (await repository.get(db, service.id)) as TerminationRow;
  }

  /** The newest termination of the domain, if it was ever terminated. */
  latestOf(domain: string): Promise<TerminationRow | undefined> {
    return repository.latestOf(this.ports.db, domain);
  }

  /** The termination's row once it has ended, or as it is after `waitMs`. */
  async waitFor(serviceId: number, waitMs: number): Promise<TerminationRow> {
    const end = Date.now() + waitMs;
    for (;;) {
      const row = (await repository.get(this.ports.db, serviceId)) as TerminationRow;
      if (row.state !== 'running' || Date.now() >= end) return row;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  }

  /** The job's work; on its last try a failure is recorded on the row (the console retries it). */
  async run(serviceId: number, lastTry: boolean): Promise<void> {
    const { db, now } = this.ports;
    const row = await repository.get(db, serviceId);
    if (!row || row.state === 'done') return;
    try {
      await this.terminate(row);
    } catch (error) {
      if (lastTry)
        await repository.update(
          db,
          serviceId,
          { state: 'failed', error: String((error as Error).message ?? error).slice(0, 500) },
          now(),
        );
      throw error;
    }
  }

  private async terminate(row: TerminationRow): Promise<void> {
    const { db, now } = this.ports;
    const plan = row.removal === '' ? await this.backUpAndDelete(row) : terminationPlan.parse(JSON.parse(row.removal));
    // the rows are gone: nothing publishes the zone again, and each server removes what the plan names
    if (plan.zone) await this.ports.dns.removeZone(plan.zone);
    // each server removes its part on its own: side by side
    await Promise.all(
      MOVABLE_PARTS.map((part) => this.removeOnServer(part, plan.nodes[part] ?? UNNAMED_NODE, plan.service)),
    );
    // a billing system that makes the service again with the same key gets a new one
    await this.ports.idempotency.forget(row.domain);
    await repository.update(db, row.service_id, { state: 'done', step: '', error: '', finished_at: now() }, now());
  }

  /** The last backup, then the service's rows deleted in one transaction with what is left to remove. */
  private async backUpAndDelete(row: TerminationRow): Promise<TerminationPlan> {
    const { db, now, keepDays } = this.ports;
    const resource = await repository.resource(db, row.service_id);
    if (!resource) throw new Error(`service ${row.service_id} is gone, and nothing says what to remove`);
    if (keepDays > 0 && row.snapshot_id === '') {
      await repository.update(db, row.service_id, { step: 'backup' }, now());
      const backups = await this.ports.backups();
      const snapshot = await backups.lastBackup({
        id: resource.id,
        reference: resource.reference,
        domain: resource.reference_punycode,
      });
      await repository.update(
        db,
        row.service_id,
        { snapshot_id: snapshot.id, keep_until: now() + keepDays * 86_400 },
        now(),
      );
    }
    const plan = await this.plan(resource.id, resource.reference_punycode);
    await db.transaction().execute(async (trx) => {
      await repository.deleteService(trx, resource.id, resource.account_id);
      await repository.update(trx, resource.id, { step: 'removing', removal: JSON.stringify(plan) }, now());
    });
    return plan;
  }

  /** What each server removes, read before the rows go. */
  private async plan(serviceId: number, domain: string): Promise<TerminationPlan> {
    const found = await repository.removal(this.ports.db, serviceId);
    const nodes = {} as Record<MovablePart, string>;
    for (const part of MOVABLE_PARTS)
      nodes[part] = found.placements.find((placement) => placement.role === part)?.node ?? UNNAMED_NODE;
    const owner = await this.ports.ownerOf(serviceId);
    const service: ServiceRemoval = {
      serviceId,
      domain,
      ...(owner ? { owner } : {}),
      user: found.user ? { name: found.user.name, uid: found.user.uid, gid: found.user.gid } : null,
      mailboxes: found.mailboxes.map((mailbox) => mailbox.local_part),
      databases: found.databases.map((database) => ({ name: database.name, user: database.db_user })),
    };
    return { nodes, zone: found.hasZone ? domain : null, service };
  }

  private async removeOnServer(part: MovablePart, node: string, service: ServiceRemoval): Promise<void> {
    const where = node === UNNAMED_NODE ? 'this machine' : `server ${node}`;
    await serverDone(
      this.ports.jobs,
      queueOfServer(PART_REMOVAL_JOBS[part], node),
      service,
      this.ports.serverWaitMs,
      `removing the ${part} part on ${where}`,
    );
  }
}
