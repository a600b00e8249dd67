import type { HostingService as HostingServiceDto } from '@panel247/contract/hosting';
import type { Db } from '../../db/database.ts';
import type { DatabasesDriver } from '../../drivers/databases/databases.driver.ts';
import type { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import type { WebDriver } from '../../drivers/web/web.driver.ts';
import { FieldErrors } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { CountedLimit } from '../plans/plan.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { hostingRepository } from './hosting.repository.ts';
import type { HostedService, HostingChanges } from './hosting-changes.ts';
import type { HostingSettings } from './hosting-settings.ts';

const MIB = 1024 * 1024;

function compareVersions(a: string, b: string): number {
  const [aMajor, aMinor] = a.split('.').map(Number) as [number, number];
  const [bMajor, bMinor] = b.split('.').map(Number) as [number, number];
  return aMajor - bMajor || aMinor - bMinor;
}

/** A hosting service at a glance (usage against the plan), its PHP version, parking and error log. */
export class HostingOverviewService {
  constructor(
    private readonly db: Db,
    private readonly changes: HostingChanges,
    private readonly homes: ServiceHomes,
    private readonly driver: WebDriver,
    private readonly databases: DatabasesDriver,
    private readonly settings: HostingSettings,
    private readonly now: () => number,
    /** Whether the databases' driver is the overview's own (then it closes it), not its node's. */
    private readonly ownsDatabases = true,
  ) {}

  /** Ends the database driver's pool when it was opened only for the databases' usage. */
  async close(): Promise<void> {
    if (this.ownsDatabases) await this.databases.close();
  }

  async get(actor: Actor, id: number): Promise<HostingServiceDto> {
    const service = await this.changes.service(actor, id, 'service', 'visible');
    return this.toServiceDto(service);
  }

  private async toServiceDto(service: HostedService): Promise<HostingServiceDto> {
    await this.changes.ensure(this.db, service.id);
    const settings = await hostingRepository.settings(this.db, service.id);
    const names = await hostingRepository.databaseNames(this.db, service.id);
    const { webBytes, databaseBytes } = await this.sizes(service, names);
    const plan = await planLimits.named(this.db, service.id);
    const counts = await planLimits.counts(this.db, service.id);
    const count = (limit: CountedLimit) => ({ used: counts[limit], limit: plan[limit] });
    // A size without a limit is shown as 0, which the spec's overview reads as none.
    const bytes = (mb: number | null) => (mb ?? 0) * MIB;
    const versions = [...this.settings.phpVersions]
      .filter((version) => planLimits.offers(plan, version))
      .sort(compareVersions);
    return {
      id: service.id,
      frontendDbID: service.id,
      usage: {
        spaceWeb: { used: webBytes, limit: bytes(plan.webSpaceMb) },
        // Traffic is not metered yet.
        traffic: { used: 0, limit: bytes(plan.trafficMb) },
        BBDD: { used: names.length, limit: plan.databases ?? 0 },
        spaceBbdd: { used: databaseBytes, limit: bytes(plan.databaseSpaceMb) },
      },
      defaultPHPVersion: this.settings.defaultPhpVersion,
      phpversion: settings?.php_version || 'default',
      phpminversion: versions[0] ?? this.settings.defaultPhpVersion,
      phpVersions: versions,
      parkingActive: settings?.parking === 1,
      plan: {
        name: plan.name,
        sites: count('sites'),
        mailboxes: count('mailboxes'),
        aliases: count('aliases'),
        ftpAccounts: count('ftpAccounts'),
        databases: count('databases'),
      },
      permissions: service.levels,
      applying: await this.changes.applying(service.id),
    };
  }

  /**
   * What the service's home and databases hold, in bytes. Shown, not relied on: an unreachable
   * database server leaves the overview answering (its databases count as empty).
   */
  async sizes(
    service: { id: number; domain: string },
    names?: string[],
  ): Promise<{ webBytes: number; databaseBytes: number }> {
    let databaseBytes = 0;
    try {
      const databases = names ?? (await hostingRepository.databaseNames(this.db, service.id));
      for (const size of (await this.databases.usage(databases)).values()) databaseBytes += size;
    } catch {
      databaseBytes = 0;
    }
    return { webBytes: await this.homes.usage(service.domain), databaseBytes };
  }

  /**
   * The service's web changes still to apply, tried now (the customer's "try again"): answers
   * the overview and whether they are all on the web server.
   */
  async applyNow(actor: Actor, id: number): Promise<{ service: HostingServiceDto; applied: boolean }> {
    const service = await this.changes.service(actor, id, 'service', 'action');
    const applied = await this.changes.applyNow(service);
    return { service: await this.toServiceDto(service), applied };
  }

  async setPhpVersion(actor: Actor, id: number, phpVersion: string): Promise<HostingServiceDto> {
    const service = await this.changes.service(actor, id, 'service', 'action');
    const version = phpVersion.trim();
    const offered =
      this.settings.phpVersions.includes(version) && planLimits.offers(await planLimits.of(this.db, id), version);
    if (version !== 'default' && !offered) {
      throw FieldErrors.one('phpVersion', 'web.error.php_version');
    }
    await this.changes.change(
      service,
      (trx) =>
        hostingRepository.updateSettings(trx, id, {
          php_version: version === 'default' ? '' : version,
          updated_at: this.now(),
        }),
      { prepare: [] },
    );
    return this.toServiceDto(service);
  }

  async setParking(actor: Actor, id: number, on: boolean): Promise<HostingServiceDto> {
    const service = await this.changes.service(actor, id, 'service_parking', 'action');
    await this.changes.change(
      service,
      (trx) => hostingRepository.updateSettings(trx, id, { parking: on ? 1 : 0, updated_at: this.now() }),
      { prepare: [] },
    );
    return this.toServiceDto(service);
  }

  /** The tail of the service's nginx and PHP error logs; the files come from the id, never from input. */
  async errorLog(actor: Actor, id: number) {
    await this.changes.service(actor, id, 'service', 'visible');
    return this.driver.errorLog(id);
  }
}
