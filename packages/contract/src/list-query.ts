import { z } from 'zod';
import { LIST_PAGE_SIZE } from './constants.ts';
import { integerOr, optionalInteger, textAsTyped } from './fields.ts';

/**
 * The optional paging of a list call (mail, sites, FTP, redirections, as the DNS list does it).
 * Without `page` and `filter` the call answers the spec's full list, unchanged; with either, one
 * page of the rows whose shown fields contain `filter` (case-insensitive), sorted by one of the
 * list's own `sort` keys, and `total`, the count of every matching row.
 */
export function listPageFields<const Sort extends readonly [string, ...string[]]>(sortKeys: Sort) {
  return {
    page: optionalInteger('validation.invalid', { min: 1 }),
    pageSize: integerOr(LIST_PAGE_SIZE, 'validation.invalid', { min: 1, max: 100 }),
    filter: textAsTyped(200).optional().default(''),
    sort: z.enum(sortKeys, { error: 'validation.invalid' }).optional().default(sortKeys[0]),
    order: z.enum(['asc', 'desc'], { error: 'validation.invalid' }).optional().default('asc'),
  };
}

/** Only in a paged answer: the full answer stays the spec's shape. */
export const listTotal = z.number().int().optional();

/** What the web sends for one page: the contract's fields it sets (the size is the spec's). */
export interface ListPageQuery {
  page: number;
  filter: string;
}
