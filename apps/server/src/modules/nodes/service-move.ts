import path from 'node:path';
import type { Db } from '../../db/database.ts';
import type { FileOwner, FileWorkers } from '../../drivers/files/confined/protocol.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { serviceChangeLog } from '../../jobs/service-change-log.repository.ts';
import type { RecordCorrector } from '../dns/dns-provider.service.ts';
import { releaseOn, SERVE_MOVED_SERVICE } from '../hosting/web-move.jobs.ts';
import { nodesRepository } from './nodes.repository.ts';
import { MOVE_STALE_SECONDS, UNNAMED_NODE } from './placement-roles.ts';
import { placementsRepository } from './placements.repository.ts';

/** A web server as the records the panel owns name it. */
export interface WebAddresses {
  ipv4: string;
  ipv6: string;
  host: string;
}

export interface ServiceMoveDeps {
  db: Db;
  /** Epoch seconds. */
  now: () => number;
  jobs: Pick<JobEngine, 'send' | 'find'>;
  /** The file workers of a server ('' : the unnamed machine). */
  filesOn(node: string): Promise<FileWorkers>;
  /** This process's PANEL_HOSTING_ROOT, which the homes in requests are made from. */
  root: string;
  ownerOf(serviceId: number): Promise<FileOwner | undefined>;
  /** The zone's records rewritten and published (DnsService.correctRecords). */
  correctRecords(correct: RecordCorrector, options: { dryRun: false; serviceId: number }): Promise<unknown[]>;
  /** The unnamed machine's web addresses: the provider's settings (PANEL_DNS_WEB_IPV4…). */
  unnamedWeb: WebAddresses;
}

export interface MoveReport {
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

/** Turns a record the panel made from `{web_ipv4}`, `{web_ipv6}` or `{web_host}` to the new server's value. */
export function webRecordsTo(from: WebAddresses, to: WebAddresses): RecordCorrector {
  const parts = [
    ['{web_ipv4}', from.ipv4, to.ipv4],
    ['{web_ipv6}', from.ipv6, to.ipv6],
    ['{web_host}', from.host.replace(/\.$/, ''), to.host.replace(/\.$/, '')],
  ] as const;
  return (record) => {
    let value = record.value;
    for (const [placeholder, before, after] of parts) {
      if (!record.dynamic_value.includes(placeholder)) continue;
      // the new server has no such address: the record goes (no visitor sent to the old one)
      if (after === '') return null;
      if (before !== '') value = value.split(before).join(after);
    }
    return value === record.value ? undefined : value;
  };
}

const POLL_MS = 100;

/**
 * `panel node move`: a service's web part (its home, sites, PHP pool, certificates and FTP
 * logins) to another server, while it runs. A first copy of the home is made live; then, with the
 * service's web and FTP changes and file writes held (`cutover`), a final copy of what changed
 * since the first began, which mirrors the home exactly, the switch of its placement, the new server serving it (proven by its own nginx),
 * and the records the panel owns pointed there. Only then does the old server release its copy,
 * after `keepOldSeconds` (the records' TTL: resolvers that still hold the old address are
 * answered there meanwhile). A failure at any step puts the placement back and has the new
 * server release what it got; the old copy was never touched, so nothing is lost.
 */
export class ServiceMoves {
  constructor(private readonly deps: ServiceMoveDeps) {}

  async moveWeb(domain: string, to: string, options: { keepOldSeconds: number; waitMs: number }): Promise<MoveReport> {
    const { db, now } = this.deps;
    const serviceId = await placementsRepository.serviceOfDomain(db, domain);
    if (serviceId === undefined) throw new NotFoundError();
    const from = (await placementsRepository.nodeOf(db, serviceId, 'web'))?.node ?? UNNAMED_NODE;
    if (from === to) throw new ConflictError('node.error.move_same');
    const target = await this.webAddressesOf(to);
    const source = await this.webAddressesOf(from);
    if (
      !(await placementsRepository.startMove(
        db,
        { service_id: serviceId, role: 'web', from_node: from, to_node: to },
        now(),
        now() - MOVE_STALE_SECONDS,
      ))
    )
      throw new ConflictError('node.error.moving');
    const service = { serviceId, domain };
    const started = Date.now();
    let switched = false;
    try {
      // a source that does not say when it began (an older agent) gets a whole final copy
      const resendSince = (await this.copyHome(service, from, to)) ?? 0;
      const copyMs = Date.now() - started;
      const cutover = Date.now();
      await db.transaction().execute(async (trx) => {
        // after any change of the service already committed: the final copy sees it
        await serviceChangeLog.takeTurn(trx, serviceId);
        await placementsRepository.setMoveState(trx, serviceId, 'cutover');
      });
      await this.copyHome(service, from, to, resendSince);
      await placementsRepository.setNode(db, serviceId, 'web', to, now());
      switched = true;
      await this.served(service, options.waitMs);
      const records = await this.deps.correctRecords(webRecordsTo(source, target), { dryRun: false, serviceId });
      await placementsRepository.endMove(db, serviceId);
      const cutoverMs = Date.now() - cutover;
      await this.deps.jobs.send(releaseOn(from), service, { afterSeconds: options.keepOldSeconds });
      return { domain, from, to, copyMs, cutoverMs, records: records.length };
    } catch (error) {
      if (switched) await placementsRepository.setNode(db, serviceId, 'web', from, now());
      await placementsRepository.endMove(db, serviceId);
      // what the new server got goes (queued if it is away: it runs when it is back)
      await this.deps.jobs.send(releaseOn(to), service).catch(() => undefined);
      throw new MoveRolledBack(domain, from, to, error);
    }
  }

  /** A server that may take the web part, and its addresses. */
  private async webAddressesOf(node: string): Promise<WebAddresses> {
    if (node === UNNAMED_NODE) return this.deps.unnamedWeb;
    const row = await nodesRepository.byName(this.deps.db, node);
    if (!row?.roles.split(',').includes('web')) throw new ConflictError('node.error.pin_role', { node, role: 'web' });
    return { ipv4: row.ipv4, ipv6: row.ipv6, host: row.host };
  }

  /**
   * The home on `from` as a tar, written on `to` as it streams. The first copy (no `since`) sends
   * everything and answers the source's time from which a later copy must send a file again; the
   * final copy, given it, sends only what changed since (the rest by name) and mirrors: what the
   * home no longer holds goes on `to` too.
   */
  private async copyHome(
    service: { serviceId: number; domain: string },
    from: string,
    to: string,
    since?: number,
  ): Promise<number | undefined> {
    const base = path.join(this.deps.root, service.domain);
    const owner = await this.deps.ownerOf(service.serviceId);
    const [source, target] = await Promise.all([this.deps.filesOn(from), this.deps.filesOn(to)]);
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
  }

  /** The new server's word that it serves the service, within `waitMs`. */
  private async served(service: { serviceId: number; domain: string }, waitMs: number): Promise<void> {
    const id = await this.deps.jobs.send(SERVE_MOVED_SERVICE, service);
    if (!id) throw new Error('the new server already has a serve job of this service waiting');
    const end = Date.now() + waitMs;
    for (;;) {
      const job = await this.deps.jobs.find(SERVE_MOVED_SERVICE, id);
      if (job?.state === 'completed') return;
      if (job?.state === 'failed') throw new Error(`the new server did not serve it: ${job.error ?? 'failed'}`);
      if (Date.now() > end) throw new Error(`the new server did not serve it within ${waitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
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
