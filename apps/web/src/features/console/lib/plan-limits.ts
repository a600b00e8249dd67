import type { ConsolePlan } from '@panel247/contract/console';
import { formatBytes } from '../../../lib/format-bytes';
import { isSizeLimit, type PlanLimit } from './plan-form';

const MIB = 1024 * 1024;

/**
 * A plan's limit as the table shows it: a size in the largest unit (1024 MiB reads 1 GB), a
 * count as a number, and `unlimited` (the translated word) where the plan has none.
 */
export function limitText(plan: ConsolePlan, limit: PlanLimit, language: string, unlimited: string): string {
  const value = plan[limit];
  if (value === null) return unlimited;
  return isSizeLimit(limit) ? formatBytes(value * MIB, language) : new Intl.NumberFormat(language).format(value);
}
