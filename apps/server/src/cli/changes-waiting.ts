import type { Db } from '../db/database.ts';
import { serviceChangeLog } from '../jobs/service-change-log.repository.ts';
import { dnsRepository } from '../modules/dns/dns.repository.ts';
import { zonePublishLog } from '../modules/dns/zone-publish-log.repository.ts';

/** One object whose changes wait for its server: a service's web side, or its DNS zone. */
export interface WaitingChanges {
  area: string;
  serviceId: number;
  domain: string;
  pending: number;
  /** When the oldest waiting change was made (seconds). */
  since: number;
  /** What the last attempt met (the daemon's own words, for the provider), or null. */
  lastError: string | null;
}

/** A change older than this that has not reached its server is worth the provider's look. */
export const STALE_CHANGE_SECONDS = 300;

/** Every object with changes not yet on its server, oldest first. */
export async function changesWaiting(db: Db): Promise<WaitingChanges[]> {
  const waiting: WaitingChanges[] = await serviceChangeLog.backlogs(db);
  for (const zone of await dnsRepository.listUnpublishedZones(db)) {
    const backlog = await zonePublishLog.backlog(db, zone.service_id);
    if (!backlog) continue;
    waiting.push({
      area: 'dns',
      serviceId: zone.service_id,
      domain: zone.reference_punycode,
      pending: (await zonePublishLog.pending(db, zone.service_id)).length,
      since: backlog.since,
      lastError: backlog.failedAttempt?.detail ?? null,
    });
  }
  return waiting.sort((a, b) => a.since - b.since);
}

/** Those that failed an attempt, or wait longer than STALE_CHANGE_SECONDS. */
export function troubled(waiting: WaitingChanges[], now: number): WaitingChanges[] {
  return waiting.filter((item) => item.lastError !== null || now - item.since > STALE_CHANGE_SECONDS);
}
