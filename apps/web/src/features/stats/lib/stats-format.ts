import type { StatsSiteData } from '@panel247/contract/stats';

/** `2026-12` in the language's words: "diciembre de 2026". */
export function monthLabel(month: string, language: string): string {
  const [year, number] = month.split('-').map(Number);
  if (!year || !number) return month;
  return new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(year, number - 1, 1),
  );
}

/** `2026-12-03` as the day of the month the chart's axis shows ("3"). */
export function dayLabel(date: string): string {
  return String(Number(date.slice(8, 10)));
}

/** A whole number in the language's format. */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/** The site shown: the one chosen if the service still has it, else the first with statistics, else the first. */
export function chosenSite(sites: { host: string; months: string[] }[], chosen: string | null): string | null {
  if (chosen && sites.some((site) => site.host === chosen)) return chosen;
  return (sites.find((site) => site.months.length > 0) ?? sites[0])?.host ?? null;
}

/** The months' chart: each month with its visits, pages and megabytes (rounded to tenths). */
export function monthsSeries(data: StatsSiteData, language: string) {
  return data.months.map((month) => ({
    month: monthLabel(month.month, language),
    visitors: month.visitors,
    pages: month.pages,
    megabytes: Math.round((month.bytes / (1024 * 1024)) * 10) / 10,
  }));
}
