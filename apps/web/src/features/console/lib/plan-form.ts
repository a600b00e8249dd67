import type { ConsolePlan } from '@panel247/contract/console';
import type { PlanPayload } from '../api/save-plan';

/** A plan's limits, in the order the form and the table show them; null in a plan is no limit. */
export const PLAN_LIMITS = [
  'webSpaceMb',
  'trafficMb',
  'backupMb',
  'databaseSpaceMb',
  'mailboxMb',
  'sites',
  'mailboxes',
  'aliases',
  'ftpAccounts',
  'databases',
  'cronTasks',
  'sshKeys',
  'spamSenders',
  'statsLogMb',
] as const satisfies readonly (keyof ConsolePlan)[];
export type PlanLimit = (typeof PLAN_LIMITS)[number];

/** The limits counted in MiB (shown as a size); the others are counts. */
const SIZES: ReadonlySet<PlanLimit> = new Set([
  'webSpaceMb',
  'trafficMb',
  'backupMb',
  'databaseSpaceMb',
  'mailboxMb',
  'statsLogMb',
]);
export const isSizeLimit = (limit: PlanLimit) => SIZES.has(limit);

/**
 * The settings every plan has (no "no limit" for these): a whole number from 1 to the server's
 * bound (plans.service's MAX_PHP_WORKERS, the contract's for the tasks' interval), and the value a
 * new plan starts with, as the server's own default plan has them.
 */
export const PLAN_SETTINGS = {
  phpWorkers: { max: 200, initial: 5, error: 'console.plans.workers_range' },
  cronMinIntervalMinutes: { max: 1440, initial: 5, error: 'console.plans.interval_range' },
} as const;
export type PlanSetting = keyof typeof PLAN_SETTINGS;
export const PHP_WORKERS_MAX = PLAN_SETTINGS.phpWorkers.max;
export const CRON_INTERVAL_MAX = PLAN_SETTINGS.cronMinIntervalMinutes.max;

export type PlanValues = Record<PlanLimit | PlanSetting, string> & { name: string; phpVersions: string };

/** The form's values of a plan, or of a new one (no limits, every PHP version). */
export function planValues(plan: ConsolePlan | null): PlanValues {
  const limits = Object.fromEntries(
    PLAN_LIMITS.map((limit) => [limit, plan?.[limit] === null || !plan ? '' : String(plan[limit])]),
  ) as Record<PlanLimit, string>;
  return {
    name: plan?.name ?? '',
    ...limits,
    phpVersions: plan?.phpVersions.join(', ') ?? '',
    phpWorkers: String(plan?.phpWorkers ?? PLAN_SETTINGS.phpWorkers.initial),
    cronMinIntervalMinutes: String(plan?.cronMinIntervalMinutes ?? PLAN_SETTINGS.cronMinIntervalMinutes.initial),
  };
}

/** What the save call gets: the values trimmed ('' stays: no limit, every version). */
export function planPayload(values: PlanValues, create: boolean): PlanPayload {
  const trimmed = Object.fromEntries(Object.entries(values).map(([field, value]) => [field, value.trim()]));
  return { ...(trimmed as PlanValues), create: create ? '1' : '0' };
}

const WHOLE = /^\d{1,12}$/;

/** The checks the form makes before sending (the server checks again, the name's rules too): i18n keys. */
export function validatePlan(values: PlanValues): Partial<Record<keyof PlanValues, string>> {
  const errors: Partial<Record<keyof PlanValues, string>> = {};
  if (!values.name.trim()) errors.name = 'validation.required';
  for (const limit of PLAN_LIMITS) {
    const value = values[limit].trim();
    if (value !== '' && !WHOLE.test(value)) errors[limit] = 'console.plans.whole_number';
  }
  for (const setting of Object.keys(PLAN_SETTINGS) as PlanSetting[]) {
    const { max, error } = PLAN_SETTINGS[setting];
    const value = values[setting].trim();
    if (!WHOLE.test(value) || Number(value) < 1 || Number(value) > max) errors[setting] = error;
  }
  return errors;
}
