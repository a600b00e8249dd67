import type { Db } from '../../db/database.ts';
import type { JobEngine } from '../../jobs/job-engine.ts';
import type { EventBus } from '../realtime/event-bus.ts';
import { healthRepository } from './health.repository.ts';

export interface Health {
  status: 'ok' | 'degraded';
  /**
   * How many of the provider's servers have not been heard from for a minute. It never makes this
   * instance degraded (a balancer would take every instance out for one server down); it is there
   * so a monitor that probes health sees it. A count and no names: the answer is for anyone.
   */
  serversDown: number;
}

/** The provider's servers, as far as health needs them. */
export interface ServersSeen {
  downCount(): Promise<number>;
}

/** A database that has not answered in this long counts as down: a balancer waits for no one. */
const PING_TIMEOUT_MS = 2000;

/**
 * What a load balancer needs to know about this instance: whether it can serve customers. It
 * can if its database answers, its realtime events arrive (a dropped LISTEN means open pages
 * miss changes until it is back) and its job engine takes work (the changes its customers make
 * are applied by jobs). The daemons are `panel doctor`'s business: one of them down leaves the
 * rest of the panel working, and every instance would report the same; so are failed jobs
 * (`panel jobs`, doctor's work log check), which another instance would not fix either.
 */
export class HealthService {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly jobs: Pick<JobEngine, 'working'>,
    private readonly servers: ServersSeen,
  ) {}

  async check(): Promise<Health> {
    if (this.events.epoch === undefined || !this.jobs.working) return { status: 'degraded', serversDown: 0 };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database ping timed out')), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([healthRepository.ping(this.db), late]);
      return { status: 'ok', serversDown: await Promise.race([this.servers.downCount(), late]) };
    } catch {
      return { status: 'degraded', serversDown: 0 };
    } finally {
      clearTimeout(timer);
    }
  }
}
