import type { Db } from '../../db/database.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { ZoneHistory } from './zone-history.ts';
import { ZonePublishWorker } from './zone-publish-worker.ts';
import { ZoneServer } from './zone-server.ts';

/**
 * The node's side of the zones' publishing alone (what a node agent runs): the zone's job, the
 * DNS server and the history a sync records its repairs in, without the services that change
 * zones (the panel's DnsService builds the same parts in ZoneChanges).
 */
export function createZonePublishing(
  db: Db,
  driver: DnsDriver,
  settings: { nameservers: string[]; defaultTtl: number; history: { keep: number; days: number } },
  now: () => number,
  jobs: JobSender,
  times: { recheckSeconds: number },
  landed?: WorkLanded,
): ZonePublishWorker {
  const history = new ZoneHistory(settings.history, now);
  return new ZonePublishWorker(
    db,
    new ZoneServer(db, driver, settings),
    jobs,
    (trx, serviceId, zone, server, wanted) => history.recordSync(trx, serviceId, zone, server, wanted),
    now,
    times,
    landed,
  );
}
