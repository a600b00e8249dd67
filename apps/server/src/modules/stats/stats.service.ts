import {
  type StatsMonth,
  type StatsSiteData,
  type StatsSitesData,
  type StatsSummary,
  statsSummarySchema,
} from '@panel247/contract/stats';
import type { Db } from '../../db/database.ts';
import { NotFoundError } from '../../errors.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { Actor } from '../auth/actor.ts';
import { hostOf } from '../hosting/hosting-input.ts';
import type { AuthorizedResource, PermissionService } from '../permission/permission.service.ts';
import { REFRESH_SITE_STATS } from './stats.jobs.ts';
import { statsRepository } from './stats.repository.ts';
import { monthOf } from './stats-summary.ts';

/** A summary as it was kept: read back through the contract's schema (a row that is not one counts as none). */
function readSummary(text: string): StatsSummary | null {
  try {
    const parsed = statsSummarySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A hosting service's site statistics, behind `service_stats` (read sees them, write asks for a
 * refresh now). The summaries are made on the service's web server (StatsRefresher); this
 * answers from their rows.
 */
export class StatsService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly jobs: JobSender,
    private readonly settings: { refreshSeconds: number },
  ) {}

  private async service(actor: Actor, id: number, need: 'visible' | 'action'): Promise<AuthorizedResource> {
    const resource = await this.permissions.authorize(actor, id, 'service_stats', need);
    if (!resource.hasService) throw new NotFoundError();
    return resource;
  }

  /** The sites of today (each with its months) and any site that has statistics from before. */
  private async siteHosts(id: number): Promise<Map<string, string[]>> {
    const service = await statsRepository.serviceSites(this.db, id);
    const hosts = new Map<string, string[]>();
    if (service) for (const subdomain of service.sites) hosts.set(hostOf(subdomain, service.domain), []);
    for (const row of await statsRepository.months(this.db, id)) {
      const months = hosts.get(row.host) ?? [];
      months.push(row.month);
      hosts.set(row.host, months);
    }
    return hosts;
  }

  async sites(actor: Actor, id: number): Promise<StatsSitesData> {
    await this.service(actor, id, 'visible');
    const hosts = await this.siteHosts(id);
    return {
      sites: [...hosts].map(([host, months]) => ({ host, months })).sort((a, b) => a.host.localeCompare(b.host)),
      refreshSeconds: this.settings.refreshSeconds,
      updatedAt: await statsRepository.refreshedAt(this.db, id),
    };
  }

  /** One site's month ('' : its newest), with every month's totals for the overview. */
  async site(actor: Actor, id: number, host: string, month: string): Promise<StatsSiteData> {
    await this.service(actor, id, 'visible');
    if (!(await this.siteHosts(id)).has(host)) throw new NotFoundError();
    const rows = await statsRepository.siteMonths(this.db, id, host);
    const months: StatsMonth[] = [];
    const summaries = new Map<string, StatsSummary>();
    for (const row of rows) {
      const summary = readSummary(row.summary);
      if (!summary) continue;
      summaries.set(row.month, summary);
      months.push(monthOf(row.month, summary));
    }
    const shown = month || (months[months.length - 1]?.month ?? '');
    if (month && !summaries.has(month)) throw new NotFoundError();
    return {
      host,
      month: shown,
      summary: summaries.get(shown) ?? null,
      months,
      updatedAt: await statsRepository.refreshedAt(this.db, id),
    };
  }

  /** Asks the service's web server to read its logs now (one refresh at a time per service). */
  async refresh(actor: Actor, id: number): Promise<void> {
    await this.service(actor, id, 'action');
    await this.jobs.send(REFRESH_SITE_STATS, { serviceId: id });
  }
}

/** The control plane's round: every service's refresh sent to its web server. */
export class StatsScheduler {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobSender,
  ) {}

  async sendAll(): Promise<number> {
    const services = await statsRepository.refreshable(this.db);
    for (const serviceId of services) await this.jobs.send(REFRESH_SITE_STATS, { serviceId });
    return services.length;
  }
}
