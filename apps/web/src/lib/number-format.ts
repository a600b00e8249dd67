/**
 * One formatter per language and number of decimals: building one costs about a millisecond, and
 * a list draws a usage bar per row (its bytes and its percentage).
 */
const formatters = new Map<string, Intl.NumberFormat>();

/** Numbers in `language`'s format with `minimumDecimals` to 2 decimals. */
export function numberFormat(language: string, minimumDecimals: 0 | 2): Intl.NumberFormat {
  const key = `${language}/${minimumDecimals}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(language, { minimumFractionDigits: minimumDecimals, maximumFractionDigits: 2 });
    formatters.set(key, formatter);
  }
  return formatter;
}
