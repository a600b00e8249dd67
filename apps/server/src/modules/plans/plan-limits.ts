import type { Db } from '../../db/database.ts';
import { ConflictError, FieldErrors, NotFoundError, QuotaError } from '../../errors.ts';
import { serviceChangeLog } from '../../jobs/service-change-log.repository.ts';
import { COUNTED_LIMITS, type CountedLimit, type PlanLimits } from './plan.ts';
import { type PlanRow, plansRepository } from './plans.repository.ts';

const MIB = 1024 * 1024;

const size = (value: number | string | null) => (value === null ? null : Number(value));

/** A plans row as the limits the panel enforces (PostgreSQL answers bigints as strings). */
export function limitsOf(row: PlanRow): PlanLimits {
  return {
    webSpaceMb: size(row.web_space_mb),
    trafficMb: size(row.traffic_mb),
    sites: row.sites,
    mailboxes: row.mailboxes,
    mailboxMb: size(row.mailbox_mb),
    aliases: row.aliases,
    ftpAccounts: row.ftp_accounts,
    databases: row.databases,
    databaseSpaceMb: size(row.database_space_mb),
    backupMb: size(row.backup_mb),
    phpVersions: row.php_versions === '' ? [] : row.php_versions.split(','),
    phpWorkers: row.php_workers,
    cronTasks: row.cron_tasks,
    cronMinIntervalMinutes: row.cron_min_interval_minutes,
    sshKeys: row.ssh_keys,
    spamSenders: row.spam_senders,
    statsLogMb: size(row.stats_log_mb),
  };
}

/**
 * Where the other parts of the panel ask a service's plan, and are held to it. The counted limits
 * are checked inside the creating change's transaction, after the service's turn is taken (its
 * `resources` row is locked: see jobs/service-changes.ts), so two creates at once cannot both
 * take the last one.
 */
export const planLimits = {
  async of(db: Db, serviceId: number): Promise<PlanLimits> {
    const { name: _name, ...limits } = await planLimits.named(db, serviceId);
    return limits;
  },

  /** The service's plan's name and its limits. */
  async named(db: Db, serviceId: number): Promise<PlanLimits & { name: string }> {
    const row = await plansRepository.ofService(db, serviceId);
    if (!row) throw new Error(`service ${serviceId} has no plan, and there is no plan 'default'`);
    return { name: row.name, ...limitsOf(row) };
  },

  /** How many of each counted thing the service has. */
  async counts(db: Db, serviceId: number): Promise<Record<CountedLimit, number>> {
    const counts = {} as Record<CountedLimit, number>;
    for (const limit of COUNTED_LIMITS) counts[limit] = await plansRepository.count(db, serviceId, limit);
    return counts;
  },

  /** The id of the plan a new service is put on (`default` when the provider names none). */
  async idOf(db: Db, name = 'default'): Promise<number> {
    const row = await plansRepository.byName(db, name);
    if (!row) throw new NotFoundError('plan.error.unknown');
    return row.id;
  },

  /**
   * One more of `limit` for the service, or a conflict naming the limit. Called in the creating
   * transaction; it takes the service's turn first (a no-op when the change already has it).
   */
  async admit(trx: Db, serviceId: number, limit: CountedLimit): Promise<void> {
    await serviceChangeLog.takeTurn(trx, serviceId);
    const allowed = (await planLimits.of(trx, serviceId))[limit];
    if (allowed === null) return;
    if ((await plansRepository.count(trx, serviceId, limit)) >= allowed)
      throw new ConflictError(`plan.error.${limit}`, { limit: allowed });
  },

  /** A mailbox quota within the plan's largest mailbox, or the field's error naming it. */
  admitMailboxSize(limits: PlanLimits, quotaMb: number, field = 'quota'): void {
    const allowed = limits.mailboxMb;
    if (allowed !== null && quotaMb > allowed) throw FieldErrors.one(field, 'plan.error.mailboxMb', { limit: allowed });
  },

  /**
   * `adding` bytes more in a space the plan limits (the web space, the databases'), or a quota
   * error naming it: 507, as trying again will not help.
   */
  spaceLeft(limits: PlanLimits, limit: 'webSpaceMb' | 'databaseSpaceMb', usedBytes: number, adding = 0): void {
    const allowed = limits[limit];
    if (allowed !== null && usedBytes + adding > allowed * MIB)
      throw new QuotaError(`plan.error.${limit}`, { limit: allowed });
  },

  /** A PHP version the plan offers ('default' is always offered: it is the server's). */
  offers(limits: PlanLimits, version: string): boolean {
    return version === 'default' || limits.phpVersions.length === 0 || limits.phpVersions.includes(version);
  },
};
