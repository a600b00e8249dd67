import type { Db } from '../../db/database.ts';
import { rotateAccessLog, tailAccessLog } from '../../drivers/stats/access-log-tail.ts';
import type { GoaccessReport } from '../../drivers/stats/goaccess.ts';
import type { SiteLogs } from '../../drivers/stats/site-logs.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { hostAndMonth, siteOfHost } from './site-hosts.ts';
import { statsRepository } from './stats.repository.ts';
import { summarise } from './stats-summary.ts';

const MIB = 1024 * 1024;
/** The logs a plan without a limit keeps. */
const UNLIMITED_LOG_MB = 1024;

/** What the refresh needs of the web server and of GoAccess (the drivers, bound by the composition). */
export interface StatsRefreshParts {
  /** The service's access log, and how to have the web server open it again after a rotation. */
  web: { accessLog(serviceId: number): string; reopenLogs(): Promise<void> };
  logs: SiteLogs;
  /** GoAccess's report of one site's month (as the service's user). */
  report(serviceId: number, file: string): Promise<GoaccessReport>;
  /** Whether GoAccess has a GeoIP database to tell countries. */
  countries: boolean;
  /** The access log's size past which it is rotated once read. */
  rotateBytes: number;
}

/**
 * A service's statistics refreshed on its web server: the lines nginx wrote since the last
 * refresh are sorted into each site's month (lines of no site, such as a redirection's, are
 * dropped), each month that gained lines is read whole by GoAccess again, and its summary
 * replaces the month's row. The log is then rotated when it has grown past `rotateBytes`, and the
 * months kept are held to the plan's `statsLogMb`, oldest first.
 */
export class StatsRefresher {
  constructor(
    private readonly db: Db,
    private readonly parts: StatsRefreshParts,
    private readonly now: () => number,
  ) {}

  async refresh(serviceId: number): Promise<{ lines: number; months: number }> {
    const service = await statsRepository.serviceSites(this.db, serviceId);
    if (!service) return { lines: 0, months: 0 };
    const siteOf = siteOfHost(service.domain, service.sites, service.redirections);
    const { logs } = this.parts;
    const accessLog = this.parts.web.accessLog(serviceId);
    const touched = new Set<string>();
    let lines = 0;
    const state = await tailAccessLog(accessLog, await logs.readState(serviceId), async (text) => {
      const byMonth = new Map<string, string[]>();
      for (const line of text.split('\n')) {
        const found = line && hostAndMonth(line);
        const host = found ? siteOf(found.host) : undefined;
        if (!found || !host) continue;
        const key = `${host} ${found.month}`;
        const own = byMonth.get(key);
        if (own) own.push(line);
        else byMonth.set(key, [line]);
        lines += 1;
      }
      for (const [key, monthLines] of byMonth) {
        const [host, month] = key.split(' ') as [string, string];
        await logs.append(serviceId, host, month, `${monthLines.join('\n')}\n`);
        touched.add(key);
      }
    });
    for (const key of touched) {
      const [host, month] = key.split(' ') as [string, string];
      const report = await this.parts.report(serviceId, logs.monthFile(serviceId, host, month));
      const summary = summarise(report, this.parts.countries);
      await statsRepository.putSummary(this.db, {
        serviceId,
        host,
        month,
        summary: JSON.stringify(summary),
        now: this.now(),
      });
    }
    if (state) {
      await logs.writeState(serviceId, state);
      // once read past the size: renamed, and the web server told to open its logs again
      if (await rotateAccessLog(accessLog, state.offset, this.parts.rotateBytes)) await this.parts.web.reopenLogs();
    }
    await statsRepository.markRefreshed(this.db, serviceId, this.now());
    const { statsLogMb } = await planLimits.of(this.db, serviceId);
    await logs.prune(serviceId, (statsLogMb ?? UNLIMITED_LOG_MB) * MIB);
    return { lines, months: touched.size };
  }
}
