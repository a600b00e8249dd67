import { STATS_TOP, type StatsMonth, type StatsSummary, type StatsTotals } from '@panel247/contract/stats';
import type { GoaccessReport } from '../../drivers/stats/goaccess.ts';

/** One row of a GoAccess panel, as far as it is read. */
interface PanelItem {
  data: string;
  hits: number;
  visitors: number;
  bytes: number;
  items: PanelItem[];
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
const whole = (value: unknown): number => {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? Math.floor(number) : 0;
};
/** A count as GoAccess writes it: `{ count: n }` in a row. */
const countOf = (value: unknown) => whole(record(value).count);

function itemsOf(list: unknown): PanelItem[] {
  if (!Array.isArray(list)) return [];
  return list.map((entry) => {
    const row = record(entry);
    return {
      data: typeof row.data === 'string' ? row.data : '',
      hits: countOf(row.hits),
      visitors: countOf(row.visitors),
      bytes: countOf(row.bytes),
      items: itemsOf(row.items),
    };
  });
}

const panel = (report: GoaccessReport, name: string) => itemsOf(record(report[name]).data);
/** A panel's total of one metric (`metadata.hits.total.value`). */
const panelTotal = (report: GoaccessReport, name: string, metric: string) =>
  whole(record(record(record(record(report[name]).metadata)[metric]).total).value);

const byHits = <T extends { hits: number }>(rows: T[]) => [...rows].sort((a, b) => b.hits - a.hits).slice(0, STATS_TOP);

/** `20261201` as `2026-12-01`; anything else is left out. */
function isoDay(value: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/**
 * GoAccess's JSON report of one site's month, summed up as the API shows it: totals, the days,
 * the top pages, referring sites, status codes and countries (null: the server has no GeoIP
 * database, so GoAccess made no such panel). Read defensively: a field GoAccess left out counts 0.
 */
export function summarise(report: GoaccessReport, withCountries: boolean): StatsSummary {
  const general = record(report.general);
  const days = panel(report, 'visitors')
    .map((day) => ({ date: isoDay(day.data), visitors: day.visitors, hits: day.hits, bytes: day.bytes }))
    .filter((day): day is { date: string; visitors: number; hits: number; bytes: number } => day.date !== null)
    .sort((a, b) => a.date.localeCompare(b.date));
  const statuses = new Map<string, number>();
  for (const group of panel(report, 'status_codes'))
    for (const item of group.items) {
      const code = /^\d{3}/.exec(item.data)?.[0];
      if (code) statuses.set(code, (statuses.get(code) ?? 0) + item.hits);
    }
  return {
    totals: {
      visitors: whole(general.unique_visitors),
      hits: whole(general.valid_requests),
      pages: panelTotal(report, 'requests', 'hits'),
      bytes: whole(general.bandwidth),
      notFound: panelTotal(report, 'not_found', 'hits'),
    },
    days,
    pages: byHits(panel(report, 'requests').map((row) => ({ path: row.data, hits: row.hits, visitors: row.visitors }))),
    referrers: byHits(panel(report, 'referring_sites').map((row) => ({ site: row.data, hits: row.hits }))),
    statuses: byHits([...statuses].map(([code, hits]) => ({ code, hits }))),
    countries: withCountries
      ? byHits(
          panel(report, 'geolocation').flatMap((continent) =>
            continent.items.map((country) => ({ country: country.data, hits: country.hits })),
          ),
        )
      : null,
  };
}

/** A month's totals for the months' overview. */
export function monthOf(month: string, summary: StatsSummary): StatsMonth {
  const totals: StatsTotals = summary.totals;
  return { month, ...totals };
}
