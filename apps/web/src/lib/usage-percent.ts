import { numberFormat } from './number-format';

/** used / limit as a percentage with 2 decimals; null without a limit (0 = no quota). */
export function usagePercent(used: number, limit: number): number | null {
  if (!(limit > 0)) return null;
  return Math.round((Math.max(0, used) / limit) * 10_000) / 100;
}

/** The percentage as shown: always 2 decimals, in the language's format. */
export function formatPercent(percent: number, language = 'es'): string {
  return `${numberFormat(language, 2).format(percent)} %`;
}
