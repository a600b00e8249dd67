import { randomBytes } from 'node:crypto';
import { isActionable, isVisible } from '@panel247/contract/constants';
import type { DNSSEC_UNSIGN_STEPS, DnssecZoneData } from '@panel247/contract/dnssec';
import type { Db } from '../../db/database.ts';
import type { DsRecord } from '../../drivers/dns/dns.driver.ts';
import { AppError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { JobRun } from '../../jobs/job-engine.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { worthRetrying } from '../../jobs/retry-worth.ts';
import type { Actor } from '../auth/actor.ts';
import type { AuthorizedResource, PermissionService } from '../permission/permission.service.ts';
import { dnssecRepository } from './dnssec.repository.ts';
import type { DomainDnssecService } from './domain-dnssec.service.ts';
import { UNSIGN_ZONE_STEP, type UnsignStep } from './zone-dnssec.jobs.ts';

/** What the zone's DNSSEC needs of the DNS server (the DNS driver, through the DNS service). */
export interface ZoneSigner {
  readonly signsZones: boolean;
  /** Signs the zone if it is not yet (created first when needed) and answers its DS records. */
  sign(serviceId: number, reference: string, referencePunycode: string): Promise<DsRecord[]>;
  /** The DS of the zone's active keys, changing nothing ([] when unsigned). */
  signedDs(zone: string): Promise<DsRecord[]>;
  /** Every key of the zone removed: it is served unsigned. */
  removeKeys(zone: string): Promise<void>;
}

export interface ZoneDnssecSettings {
  /** How long unsigning waits between the DS removal and the keys' removal. */
  unsignWaitSeconds: number;
}

type Step = (typeof DNSSEC_UNSIGN_STEPS)[number];

/** A job as the service answers it; the route translates `errorKey`. */
export interface UnsignJobView {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  step: Step;
  waitUntil: number;
  waitSeconds: number;
  errorKey: string;
}

/**
 * DNSSEC of a hosted zone, from the DNS view: its state and DS, signing (and publishing the DS at
 * the registry in the same step when the user may change the domain's DNSSEC), and unsigning as a
 * job in the only safe order: the DS leaves the registry, the job waits until no resolver can
 * still hold it (the DS TTL plus the parent's delay), then the keys go. The job's row keeps its
 * step and the end of its wait, which is what the customer sees; each step is a job of the work
 * log (UNSIGN_ZONE_STEP), so exactly one instance runs it, a step whose instance died runs again
 * (every step is idempotent), and the wait is a step sent to run when it ends. Keys are never
 * removed while the registry holds a DS of the domain.
 */
export class ZoneDnssecService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly registry: DomainDnssecService,
    private readonly signer: ZoneSigner,
    private readonly settings: ZoneDnssecSettings,
    private readonly now: () => number,
    private readonly log: (error: unknown, job: string) => void,
    private readonly jobs: JobSender,
  ) {}

  private async zone(actor: Actor, id: number, need: 'visible' | 'action'): Promise<AuthorizedResource> {
    const resource = await this.permissions.authorize(actor, id, 'service_dnszone', need);
    if (!resource.hasService) throw new NotFoundError();
    return resource;
  }

  private toView(row: {
    id: string;
    status: string;
    step: string;
    wait_until: number | string;
    wait_seconds: number | string;
    error_key: string;
  }): UnsignJobView {
    return {
      id: row.id,
      status: row.status as UnsignJobView['status'],
      step: row.step as Step,
      waitUntil: Number(row.wait_until),
      waitSeconds: Number(row.wait_seconds),
      errorKey: row.error_key,
    };
  }

  private async running(id: number): Promise<boolean> {
    return (await dnssecRepository.lastJob(this.db, id))?.status === 'running';
  }

  async state(actor: Actor, id: number): Promise<Omit<DnssecZoneData, 'job'> & { job: UnsignJobView | null }> {
    const resource = await this.zone(actor, id, 'visible');
    const writable = isActionable(resource.levels.service_dnszone);
    const registry = isActionable(resource.levels.domain_dnssec);
    const last = await dnssecRepository.lastJob(this.db, id);
    const job = last ? this.toView(last) : null;
    if (!this.signer.signsZones) return { state: 'unavailable', ds: [], writable, registry, job };
    const zoneDs = await this.signer.signedDs(resource.referencePunycode);
    // Whether the registry holds each DS is shown only to who may see the domain's DNSSEC.
    const atRegistry = isVisible(resource.levels.domain_dnssec) ? await this.registry.registryDs(id) : [];
    const ds = zoneDs.map((d) => ({
      ...d,
      atRegistry: atRegistry.some((r) => r.digest === d.digest && r.digestType === d.digestType),
    }));
    const state = job?.status === 'running' ? 'unsigning' : zoneDs.length > 0 ? 'signed' : 'unsigned';
    return { state, ds, writable, registry, job };
  }

  /**
   * Signs the zone (ECDSA P-256, PowerDNS's cryptokeys) and, when `publish` and the user holds
   * the domain's DNSSEC action, publishes its SHA-256 DS at the registry (the domain area's
   * one-click import, with its own checks) unless the domain is delegated to other name servers.
   * Answers whether the DS went to the registry, or why not.
   */
  async sign(actor: Actor, id: number, publish: boolean): Promise<{ published: 'yes' | 'no' | 'delegated_elsewhere' }> {
    const resource = await this.zone(actor, id, 'action');
    if (!this.signer.signsZones) throw new ConflictError('dnssec.error.unavailable');
    if (await this.running(id)) throw new ConflictError('dnssec.error.busy');
    await this.signer.sign(id, resource.reference, resource.referencePunycode);
    if (!publish || !isActionable(resource.levels.domain_dnssec)) return { published: 'no' };
    return { published: (await this.registry.publishZoneDs(actor, id)) ? 'yes' : 'delegated_elsewhere' };
  }

  async job(actor: Actor, id: number, jobId: string): Promise<UnsignJobView> {
    await this.zone(actor, id, 'visible');
    const row = await dnssecRepository.job(this.db, id, jobId);
    if (!row) throw new NotFoundError();
    return this.toView(row);
  }

  /** Starts unsigning; the call answers at once and the page follows the job. */
  async startUnsign(actor: Actor, id: number): Promise<UnsignJobView> {
    const resource = await this.zone(actor, id, 'action');
    if (!this.signer.signsZones) throw new ConflictError('dnssec.error.unavailable');
    if (await this.running(id)) throw new ConflictError('dnssec.error.busy');
    if ((await this.signer.signedDs(resource.referencePunycode)).length === 0) {
      throw new ConflictError('dnssec.error.not_signed');
    }
    // The DS must leave the registry first: who may not change it cannot unsign while it is there.
    const atRegistry = await this.registry.registryDs(id);
    if (atRegistry.length > 0 && !isActionable(resource.levels.domain_dnssec)) {
      throw new ForbiddenError('dnssec.error.ds_right');
    }
    const now = this.now();
    const jobId = randomBytes(16).toString('hex');
    // Two calls at once (two instances) may both have found no job running: the database lets one in.
    const started = await dnssecRepository.insertJob(this.db, {
      id: jobId,
      service_id: id,
      user_id: actor.userId,
      status: 'running',
      step: 'removing_ds',
      wait_seconds: this.settings.unsignWaitSeconds,
      created_at: now,
      updated_at: now,
    });
    if (!started) throw new ConflictError('dnssec.error.busy');
    await this.jobs.send(UNSIGN_ZONE_STEP, { jobId, serviceId: id, zone: resource.referencePunycode });
    return {
      id: jobId,
      status: 'running',
      step: 'removing_ds',
      waitUntil: 0,
      waitSeconds: this.settings.unsignWaitSeconds,
      errorKey: '',
    };
  }

  /**
   * Runs the step the job's row records (a step job's work): removing the DS starts the wait and
   * sends the next step, which the engine holds until the wait ends; a step that finds the job
   * waiting but was not sent for that wait (a retry) sends that step again for the rest of it. A
   * refusal the customer can act on (a DS back at the registry) ends the job as failed at once; a
   * daemon's failure is retried by the engine, and ends the job as failed on the last try.
   */
  async advance(target: UnsignStep, _run: JobRun, lastTry: boolean): Promise<void> {
    const { jobId, serviceId, zone } = target;
    const set = (values: { step?: Step; status?: string; wait_until?: number; error_key?: string }) =>
      dnssecRepository.updateJob(this.db, jobId, { ...values, updated_at: this.now() });
    try {
      const row = await dnssecRepository.job(this.db, serviceId, jobId);
      if (row?.status !== 'running') return;
      let step = row.step as Step;
      let waitUntil = Number(row.wait_until);
      if (step === 'removing_ds') {
        await this.registry.replaceDs(serviceId, zone, []);
        waitUntil = this.now() + Number(row.wait_seconds);
        step = 'waiting';
        await set({ step, wait_until: waitUntil });
      }
      // The step sent for the wait's end runs on; any other (a retry) sends that step again.
      if (step === 'waiting' && target.waitedUntil !== waitUntil) {
        const left = Math.max(0, waitUntil - this.now());
        await this.jobs.send(
          UNSIGN_ZONE_STEP,
          { jobId, serviceId, zone, waitedUntil: waitUntil },
          { afterSeconds: left },
        );
        return;
      }
      if (step === 'waiting') {
        step = 'removing_keys';
        await set({ step });
      }
      if (step === 'removing_keys') {
        // A DS added meanwhile (by hand, by a name-server change) would point at keys about to go.
        if ((await this.registry.registryDs(serviceId)).length > 0) throw new ConflictError('dnssec.error.ds_back');
        await this.signer.removeKeys(zone);
        await set({ step: 'done', status: 'done' });
      }
    } catch (error) {
      this.log(error, jobId);
      if (worthRetrying(error) && !lastTry) throw error;
      const key = error instanceof AppError ? error.messageKey : 'error.internal';
      await set({ status: 'failed', error_key: key });
    }
  }
}
