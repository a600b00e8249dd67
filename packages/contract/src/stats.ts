import { z } from 'zod';
import { idParam } from './fields.ts';

/**
 * Site statistics of a hosting service: per site and month, what GoAccess read from nginx's
 * access log (visits, pages, bandwidth, top pages, referrers, status codes, countries when the
 * server has a GeoIP database), refreshed on a schedule on the service's web server.
 */

/** How many of each top list are kept. */
export const STATS_TOP = 10;
/** A month as the statistics name it. */
export const STATS_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const count = z.number().int().min(0);

export const statsTotalsSchema = z.object({
  /** Unique visitors, by GoAccess's rule: one address with one browser on one day. */
  visitors: count,
  /** Every request. */
  hits: count,
  /** Requests for pages (not static files such as images, styles, scripts), answered without 404. */
  pages: count,
  bytes: count,
  notFound: count,
});
export type StatsTotals = z.infer<typeof statsTotalsSchema>;

export const statsSummarySchema = z.object({
  totals: statsTotalsSchema,
  /** Each day of the month with requests, oldest first (YYYY-MM-DD). */
  days: z.array(z.object({ date: z.string(), visitors: count, hits: count, bytes: count })),
  pages: z.array(z.object({ path: z.string(), hits: count, visitors: count })),
  referrers: z.array(z.object({ site: z.string(), hits: count })),
  /** By status code (200, 404…), most frequent first. */
  statuses: z.array(z.object({ code: z.string(), hits: count })),
  /** null: the server has no GeoIP database to tell. */
  countries: z.array(z.object({ country: z.string(), hits: count })).nullable(),
});
export type StatsSummary = z.infer<typeof statsSummarySchema>;

export const statsMonthSchema = statsTotalsSchema.extend({ month: z.string() });
export type StatsMonth = z.infer<typeof statsMonthSchema>;

export const statsParamsSchema = z.object({ id: idParam });
export const statsSitesDataSchema = z.object({
  /** Each site of the service (its host name), with the months that have statistics, newest first. */
  sites: z.array(z.object({ host: z.string(), months: z.array(z.string()) })),
  /** How often the statistics are read again from the logs, in seconds. */
  refreshSeconds: z.number().int(),
  /** Epoch seconds of the service's last refresh; 0: never. */
  updatedAt: z.number().int(),
});
export type StatsSitesData = z.infer<typeof statsSitesDataSchema>;

export const statsSiteParamsSchema = z.object({
  id: idParam,
  host: z.string().max(253),
  /** '' : the newest month with statistics. */
  month: z
    .string()
    .optional()
    .default('')
    .refine((value) => value === '' || STATS_MONTH.test(value), { error: 'validation.invalid' }),
});
export const statsSiteDataSchema = z.object({
  host: z.string(),
  /** The month shown ('' when the site has none yet). */
  month: z.string(),
  summary: statsSummarySchema.nullable(),
  /** Every month of the site with its totals, oldest first. */
  months: z.array(statsMonthSchema),
  updatedAt: z.number().int(),
});
export type StatsSiteData = z.infer<typeof statsSiteDataSchema>;
