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
] as const satisfies readonly (keyof ConsolePlan)[];
export type PlanLimit = (typeof PLAN_LIMITS)[number];

/** The limits counted in MiB (shown as a size); the others are counts. */
const SIZES: ReadonlySet<PlanLimit> = new Set(['webSpaceMb', 'trafficMb', 'backupMb', 'databaseSpaceMb', 'mailboxMb']);
export const isSizeLimit = (limit: PlanLimit) => SIZES.has(limit);

/** The server's bounds for a plan's PHP workers (plans.service's MAX_PHP_WORKERS). */
export const PHP_WORKERS_MAX = 200;
/** What a new plan starts with: the server's own default plan gives 5. */
const PHP_WORKERS_DEFAULT = 5;

export type PlanValues = Record<PlanLimit, string> & { name: string; phpVersions: string; phpWorkers: string };

/** The form's values of a plan, or of a new one (no limits, every PHP version). */
export function planValues(plan: ConsolePlan | null): PlanValues {
  const limits = Object.fromEntries(
    PLAN_LIMITS.map((limit) => [limit, plan?.[limit] === null || !plan ? '' : String(plan[limit])]),
  ) as Record<PlanLimit, string>;
  return {
    name: plan?.name ?? '',
    ...limits,
    phpVersions: plan?.phpVersions.join(', ') ?? '',
    phpWorkers: String(plan?.phpWorkers ?? PHP_WORKERS_DEFAULT),
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
  const workers = values.phpWorkers.trim();
  if (!WHOLE.test(workers) || Number(workers) < 1 || Number(workers) > PHP_WORKERS_MAX)
    errors.phpWorkers = 'console.plans.workers_range';
  return errors;
}
