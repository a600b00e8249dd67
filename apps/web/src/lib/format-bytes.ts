import { numberFormat } from './number-format';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * Bytes in the largest unit (powers of 1024, up to TB) whose value is at least 1, with at most 2
 * decimals and no trailing zeros (spec section 9), in the language's number format.
 */
export function formatBytes(bytes: number, language = 'es'): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  // compare the rounded value, so 1023.999 KB reads 1 MB and never 1024 KB
  while (Math.round(value * 100) / 100 >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const number = numberFormat(language, 0).format(Math.round(value * 100) / 100);
  return `${number} ${UNITS[unit]}`;
}
