import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { ConflictError } from '../../errors.ts';
import { dnsRepository } from './dns.repository.ts';

export interface ZoneLeaseTimes {
  /** How long a lease lasts unless renewed: what a zone waits for an instance that died holding it. */
  ttlSeconds: number;
  /** How long a change waits for the zone before it answers "busy". */
  waitMs: number;
}

const DEFAULT_TIMES: ZoneLeaseTimes = { ttlSeconds: 30, waitMs: 40_000 };

/** Waits between tries for a lease another instance holds: short at first, then at most 250 ms. */
const POLL_MS = [20, 40, 80, 160, 250];

/**
 * Changes of one zone run one after another, across every instance sharing the database, without
 * holding a database connection (or SQLite's write lock) while the DNS server answers: a slow
 * server then delays only the changes of its zones, never unrelated calls.
 *
 * Within one process, holders of one zone queue in memory (no polling); between processes, the
 * lease on the zone row decides. A holder renews its lease while it works; one that died loses it
 * after `ttlSeconds`.
 */
export class ZoneLeases {
  /** Per database (tests run several in one process), the tail of each zone's in-process queue. */
  private static readonly queues = new WeakMap<Db, Map<number, Promise<unknown>>>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly times: ZoneLeaseTimes = DEFAULT_TIMES,
  ) {}

  /** Runs `work` while holding the zone's lease. The zone's row must exist. */
  hold<T>(serviceId: number, work: () => Promise<T>): Promise<T> {
    let queues = ZoneLeases.queues.get(this.db);
    if (!queues) {
      queues = new Map();
      ZoneLeases.queues.set(this.db, queues);
    }
    const previous = queues.get(serviceId) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(() => this.holdLease(serviceId, work));
    queues.set(serviceId, mine);
    const forget = () => {
      if (queues.get(serviceId) === mine) queues.delete(serviceId);
    };
    mine.then(forget, forget);
    return mine;
  }

  /**
   * Like `hold` for a zone this process has just created with its lease taken (`owner`): the
   * work runs at once, and the lease is released after it.
   */
  async holdCreated<T>(serviceId: number, owner: string, work: () => Promise<T>): Promise<T> {
    return this.whileRenewed(serviceId, owner, work);
  }

  /** A new owner token and the time its lease would end, for a zone created with its lease. */
  newLease(): { owner: string; until: number } {
    return { owner: randomUUID(), until: this.now() + this.times.ttlSeconds };
  }

  private async holdLease<T>(serviceId: number, work: () => Promise<T>): Promise<T> {
    const lease = this.newLease();
    const deadline = Date.now() + this.times.waitMs;
    for (let attempt = 0; ; attempt += 1) {
      const until = this.now() + this.times.ttlSeconds;
      if (await dnsRepository.takeLease(this.db, serviceId, { owner: lease.owner, until }, this.now())) break;
      if (Date.now() >= deadline) throw new ConflictError('dns.error.zone_busy');
      await sleep(POLL_MS[Math.min(attempt, POLL_MS.length - 1)] ?? 250);
    }
    return this.whileRenewed(serviceId, lease.owner, work);
  }

  private async whileRenewed<T>(serviceId: number, owner: string, work: () => Promise<T>): Promise<T> {
    // A renewal that fails is tried again at the next tick, well before the lease runs out.
    const renew = setInterval(
      () => {
        dnsRepository.renewLease(this.db, serviceId, owner, this.now() + this.times.ttlSeconds).catch(() => undefined);
      },
      (this.times.ttlSeconds * 1000) / 3,
    );
    renew.unref();
    try {
      return await work();
    } finally {
      clearInterval(renew);
      // A release that fails (the database gone for a moment) only makes the next holder wait
      // for the lease to run out; the work's own answer stands.
      await dnsRepository.releaseLease(this.db, serviceId, owner).catch(() => undefined);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
