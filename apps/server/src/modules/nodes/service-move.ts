import type { Db } from '../../db/database.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { serviceChangeLog } from '../../jobs/service-change-log.repository.ts';
import type { RecordCorrector } from '../dns/dns-provider.service.ts';
import { nodesRepository } from './nodes.repository.ts';
import type { PartCopies } from './part-copies.ts';
import { type MovablePart, PART_MOVE_JOBS } from './part-move.jobs.ts';
import { MOVE_STALE_SECONDS, UNNAMED_NODE } from './placement-roles.ts';
import { placementsRepository } from './placements.repository.ts';
import { serverDone } from './server-done.ts';

/** A server as the records the panel owns name it, for one part ('' : none). */
export interface PartAddresses {
  ipv4: string;
  ipv6: string;
  host: string;
}

export interface ServiceMoveDeps {
  db: Db;
  /** Epoch seconds. */
  now: () => number;
  jobs: Pick<JobEngine, 'send' | 'find'>;
  /** How each part's data goes between two servers (part-copies.ts). */
  copies: PartCopies;
  /** The zone's records rewritten and published (DnsService.correctRecords). */
  correctRecords(correct: RecordCorrector, options: { dryRun: false; serviceId: number }): Promise<unknown[]>;
  /** The unnamed machine's addresses per part: the provider's settings (PANEL_DNS_WEB_IPV4…). */
  unnamed: Record<MovablePart, PartAddresses>;
}

export interface MoveReport {
  part: MovablePart;
  domain: string;
  from: string;
  to: string;
  /** The first copy, made while the service ran as usual. */
  copyMs: number;
  /** The final copy, the switch and the proof: the only time the service's changes waited. */
  cutoverMs: number;
  /** Records the panel owns switched to the new server. */
  records: number;
}

/**
 * Turns a record the panel made from the part's placeholders (`{web_ipv4}`, `{web_ipv6}`,
 * `{web_host}`; `{mail_ipv4}`, `{mail_host}`) to the new server's value.
 */
export function partRecordsTo(part: MovablePart, from: PartAddresses, to: PartAddresses): RecordCorrector {
  const parts = [
    [`{${part}_ipv4}`, from.ipv4, to.ipv4],
    [`{${part}_ipv6}`, from.ipv6, to.ipv6],
    [`{${part}_host}`, from.host.replace(/\.$/, ''), to.host.replace(/\.$/, '')],
  ] as const;
  return (record) => {
    let value = record.value;
    for (const [placeholder, before, after] of parts) {
      if (!record.dynamic_value.includes(placeholder)) continue;
      // the new server has no such address: the record goes (no client sent to the old one)
      if (after === '') return null;
      if (before !== '') value = value.split(before).join(after);
    }
    return value === record.value ? undefined : value;
  };
}

/**
 * `panel node move`: a part of a service to another server, while it runs. The web part is its
 * home, sites, PHP pool, certificates and FTP logins; the mail part its mailboxes' folders (mail,
 * Sieve scripts) and DKIM signing. A first copy of the part's files is made live; then, with the
 * service's changes of that part held (`cutover`: its changes and file writes refused, and the
 * daemons' views naming no server for it, so no server takes its mail or logs its users in), a
 * final copy of what changed since the first began, which mirrors the files exactly; the switch
 * of its placement; the new server serving it (`<part>.serve-moved`, proven there); and the
 * records the panel owns pointed there. Only then does the old server release its copy, after
 * `keepOldSeconds` (the records' TTL: clients that still hold the old address are answered there
 * meanwhile: a site by its old copy, mail deferred to be sent again). A failure at any step puts
 * the placement back and has the new server release what it got; the old copy was never touched,
 * so nothing is lost.
 */
export class ServiceMoves {
  constructor(private readonly deps: ServiceMoveDeps) {}

  async move(
    part: MovablePart,
    domain: string,
    to: string,
    options: { keepOldSeconds: number; waitMs: number },
  ): Promise<MoveReport> {
    const { db, now } = this.deps;
    const serviceId = await placementsRepository.serviceOfDomain(db, domain);
    if (serviceId === undefined) throw new NotFoundError();
    const from = (await placementsRepository.nodeOf(db, serviceId, part))?.node ?? UNNAMED_NODE;
    if (from === to) throw new ConflictError('node.error.move_same');
    const target = await this.addressesOf(part, to);
    const source = await this.addressesOf(part, from);
    if (
      !(await placementsRepository.startMove(
        db,
        { service_id: serviceId, role: part, from_node: from, to_node: to },
        now(),
        now() - MOVE_STALE_SECONDS,
      ))
    )
      throw new ConflictError('node.error.moving');
    const service = { serviceId, domain };
    const jobs = PART_MOVE_JOBS[part];
    const started = Date.now();
    let switched = false;
    let held = false;
    try {
      const copies = this.deps.copies[part];
      // a source that does not say when it began (an older agent) gets a whole final copy
      const resendSince = (await copies.copy(service, from, to)) ?? 0;
      const copyMs = Date.now() - started;
      const cutover = Date.now();
      await db.transaction().execute(async (trx) => {
        // after any change of the service already committed: the final copy sees it
        await serviceChangeLog.takeTurn(trx, serviceId);
        await placementsRepository.setMoveState(trx, serviceId, 'cutover');
      });
      // the old server stops what could still write there (served by no server from now on)
      held = jobs.holdsAtCutover;
      if (held)
        await serverDone(
          this.deps.jobs,
          jobs.holdOn(from),
          service,
          options.waitMs,
          `the old server's ${jobs.hold.name}`,
        );
      await copies.copy(service, from, to, resendSince);
      await placementsRepository.setNode(db, serviceId, part, to, now());
      switched = true;
      await serverDone(this.deps.jobs, jobs.serve, service, options.waitMs, `the new server's ${jobs.serve.name}`);
      const records = await this.deps.correctRecords(partRecordsTo(part, source, target), {
        dryRun: false,
        serviceId,
      });
      await placementsRepository.endMove(db, serviceId);
      const cutoverMs = Date.now() - cutover;
      await this.deps.jobs.send(jobs.releaseOn(from), service, { afterSeconds: options.keepOldSeconds });
      return { part, domain, from, to, copyMs, cutoverMs, records: records.length };
    } catch (error) {
      if (switched) await placementsRepository.setNode(db, serviceId, part, from, now());
      await placementsRepository.endMove(db, serviceId);
      // what the new server got goes (queued if it is away: it runs when it is back)
      await this.deps.jobs.send(jobs.releaseOn(to), service).catch(() => undefined);
      // and the old server, which held still at the cut-over, serves again (its databases' users unlocked)
      if (held) await this.deps.jobs.send(jobs.serveOn(from), service).catch(() => undefined);
      throw new MoveRolledBack(domain, from, to, error);
    }
  }

  /** A server that may take the part, and its addresses. */
  private async addressesOf(part: MovablePart, node: string): Promise<PartAddresses> {
    if (node === UNNAMED_NODE) return this.deps.unnamed[part];
    const row = await nodesRepository.byName(this.deps.db, node);
    if (!row?.roles.split(',').includes(part)) throw new ConflictError('node.error.pin_role', { node, role: part });
    return { ipv4: row.ipv4, ipv6: row.ipv6, host: row.host };
  }
}

/** A move that failed and was undone: the service is served by its old server as before. */
export class MoveRolledBack extends Error {
  constructor(
    readonly domain: string,
    readonly from: string,
    readonly to: string,
    readonly reason: unknown,
  ) {
    super(
      `moving ${domain} to ${to || 'the unnamed machine'} failed and was rolled back: ${(reason as Error).message ?? reason}`,
    );
  }
}
