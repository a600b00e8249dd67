import type { Db } from '../../db/database.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import {
  excessOver,
  MAX_PHP_WORKERS,
  PLAN_NAME,
  type Plan,
  type PlanExcess,
  type PlanLimits,
  type PlanUsage,
} from './plan.ts';
import { limitsOf, planLimits } from './plan-limits.ts';
import { type PlanRow, plansRepository } from './plans.repository.ts';

export interface PlanService {
  id: number;
  domain: string;
}

/** What the plans need from the rest of the panel: sizes on disk, and telling a service's servers. */
export interface PlanPorts {
  /** The PHP versions the servers run: a plan offers some of them. */
  phpVersions: string[];
  /** A service's web space and databases' sizes in bytes; without it, a downgrade checks counts only. */
  measure?: (service: PlanService) => Promise<{ webBytes?: number; databaseBytes?: number }>;
  /** The services whose plan or whose plan's limits changed: their PHP pools are rendered again. */
  applied?: (services: PlanService[]) => Promise<void>;
}

/** A plan's limits would be exceeded: what, by which service. */
export class PlanExceededError extends ConflictError {
  constructor(readonly excess: (PlanExcess & { service: string })[]) {
    super('plan.error.exceeded', {
      exceeds: excess.map((item) => `${item.service}: ${item.limit} ${item.used} > ${item.allowed}`).join('; '),
    });
  }
}

const COLUMN_OF = {
  webSpaceMb: 'web_space_mb',
  trafficMb: 'traffic_mb',
  sites: 'sites',
  mailboxes: 'mailboxes',
  mailboxMb: 'mailbox_mb',
  aliases: 'aliases',
  ftpAccounts: 'ftp_accounts',
  databases: 'databases',
  databaseSpaceMb: 'database_space_mb',
  backupMb: 'backup_mb',
  cronTasks: 'cron_tasks',
  sshKeys: 'ssh_keys',
  spamSenders: 'spam_senders',
  statsLogMb: 'stats_log_mb',
} as const satisfies Record<Exclude<keyof PlanLimits, 'phpVersions' | 'phpWorkers' | 'cronMinIntervalMinutes'>, string>;

type NumericLimit = keyof typeof COLUMN_OF;
export const NUMERIC_LIMITS = Object.keys(COLUMN_OF) as NumericLimit[];

/** The plans table's columns for some limits. */
function columnsOf(limits: Partial<PlanLimits>) {
  const set: Record<string, number | string | null> = {};
  for (const limit of NUMERIC_LIMITS) if (limits[limit] !== undefined) set[COLUMN_OF[limit]] = limits[limit];
  if (limits.phpVersions !== undefined) set.php_versions = limits.phpVersions.join(',');
  if (limits.phpWorkers !== undefined) set.php_workers = limits.phpWorkers;
  if (limits.cronMinIntervalMinutes !== undefined) set.cron_min_interval_minutes = limits.cronMinIntervalMinutes;
  return set;
}

/**
 * The provider's plans: named limits each hosting service is held to (see plan-limits.ts for
 * where). A change of a plan, or of a service's plan, applies at once; one that the usage of a
 * service on it would exceed is refused, naming what exceeds.
 */
export class PlansService {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly ports: PlanPorts,
  ) {}

  async list(): Promise<Plan[]> {
    return (await plansRepository.list(this.db)).map(({ row, services }) => this.toPlan(row, services));
  }

  async get(name: string): Promise<Plan> {
    const plan = (await this.list()).find((each) => each.name === name);
    if (!plan) throw new NotFoundError('plan.error.unknown');
    return plan;
  }

  async create(name: string, limits: PlanLimits): Promise<Plan> {
    if (!PLAN_NAME.test(name)) throw new ConflictError('plan.error.name');
    this.check(limits);
    if (await plansRepository.byName(this.db, name)) throw new ConflictError('plan.error.name_taken', { name });
    await plansRepository.insert(this.db, {
      name,
      ...(columnsOf(limits) as Omit<PlanRow, 'id' | 'name'>),
      created_at: this.now(),
      updated_at: this.now(),
    });
    return this.get(name);
  }

  /** New limits for a plan; refused when a service on it holds more than they allow. */
  async update(name: string, changes: Partial<PlanLimits>): Promise<Plan> {
    const row = await this.row(name);
    const limits = { ...limitsOf(row), ...changes };
    this.check(limits);
    const services = await plansRepository.servicesOn(this.db, row);
    await this.refuseExcess(services, limits);
    await plansRepository.update(this.db, row.id, { ...columnsOf(changes), updated_at: this.now() });
    if (changes.phpWorkers !== undefined || changes.phpVersions !== undefined) await this.ports.applied?.(services);
    return this.get(name);
  }

  /**
   * The plan `default` takes the configuration's limits (PANEL_HOSTING_*, PANEL_DATABASES_MAX_PER_SERVICE,
   * PANEL_MAIL_MAX_QUOTA_MB, PANEL_BACKUP_QUOTA_MB) when the panel upgrades to plans, whatever the services hold: nothing
   * changes for them then.
   */
  async adoptConfiguration(limits: PlanLimits): Promise<void> {
    this.check(limits);
    await plansRepository.update(this.db, await planLimits.idOf(this.db), {
      ...columnsOf(limits),
      updated_at: this.now(),
    });
  }

  /** Only a plan no service is on. */
  async remove(name: string): Promise<void> {
    const row = await this.row(name);
    const services = await plansRepository.servicesOn(this.db, row);
    if (services.length > 0) throw new ConflictError('plan.error.in_use', { services: services.length });
    await plansRepository.remove(this.db, row.id);
  }

  /** Puts a service on another plan; refused, naming what exceeds, when it holds more than it allows. */
  async assign(service: PlanService, name: string): Promise<Plan> {
    const row = await this.row(name);
    await this.refuseExcess([service], limitsOf(row));
    await plansRepository.setServicePlan(this.db, service.id, row.id);
    await this.ports.applied?.([service]);
    return this.get(name);
  }

  /** The plan of a service and what it holds against it. */
  async ofService(service: PlanService): Promise<{ plan: PlanLimits & { name: string }; usage: PlanUsage }> {
    return { plan: await planLimits.named(this.db, service.id), usage: await this.usage(service) };
  }

  async usage(service: PlanService): Promise<PlanUsage> {
    const counts = await planLimits.counts(this.db, service.id);
    const version = await plansRepository.phpVersion(this.db, service.id);
    return {
      counts,
      largestMailboxMb: Math.ceil((await plansRepository.largestMailboxBytes(this.db, service.id)) / (1024 * 1024)),
      phpVersionsInUse: version === '' ? [] : [version],
      ...(this.ports.measure ? await this.ports.measure(service) : {}),
    };
  }

  private async refuseExcess(services: PlanService[], limits: PlanLimits): Promise<void> {
    const excess: PlanExceededError['excess'] = [];
    for (const service of services)
      for (const item of excessOver(limits, await this.usage(service)))
        excess.push({ ...item, service: service.domain });
    if (excess.length > 0) throw new PlanExceededError(excess);
  }

  private check(limits: PlanLimits): void {
    for (const limit of NUMERIC_LIMITS) {
      const value = limits[limit];
      if (value !== null && !(Number.isSafeInteger(value) && value >= 0))
        throw new ConflictError('plan.error.limit_value', { limit });
    }
    if (!(Number.isSafeInteger(limits.phpWorkers) && limits.phpWorkers >= 1 && limits.phpWorkers <= MAX_PHP_WORKERS))
      throw new ConflictError('plan.error.php_workers', { max: MAX_PHP_WORKERS });
    const unknown = limits.phpVersions.filter((version) => !this.ports.phpVersions.includes(version));
    if (unknown.length > 0) throw new ConflictError('plan.error.php_versions', { versions: unknown.join(', ') });
  }

  private async row(name: string): Promise<PlanRow> {
    const row = await plansRepository.byName(this.db, name);
    if (!row) throw new NotFoundError('plan.error.unknown');
    return row;
  }

  private toPlan(row: PlanRow, services: number): Plan {
    return { id: row.id, name: row.name, ...limitsOf(row), services };
  }
}
