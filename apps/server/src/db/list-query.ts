import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';

/** One page of a list as a repository reads it: the text filter, the sort key and the window. */
export interface ListPage<Sort extends string> {
  filter: string;
  sort: Sort;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** A filter without a page answers every matching row, as the DNS list does. */
const UNPAGED_LIMIT = 100_000;

interface ListParams<Sort extends string> {
  page?: number | undefined;
  pageSize: number;
  filter: string;
  sort: Sort;
  order: 'asc' | 'desc';
}

/** The rows a list call asks for: its page, or every matching row when it names no page. */
export function listWindowOf<Sort extends string>(params: ListParams<Sort>): ListPage<Sort> {
  const limit = params.page === undefined ? UNPAGED_LIMIT : params.pageSize;
  return {
    filter: params.filter.trim(),
    sort: params.sort,
    order: params.order,
    limit,
    offset: ((params.page ?? 1) - 1) * limit,
  };
}

/**
 * The page a list call asks for, or undefined when it asks for the spec's full list (no page and
 * no filter): that answer keeps its shape and order.
 */
export function listPageOf<Sort extends string>(params: ListParams<Sort>): ListPage<Sort> | undefined {
  if (params.page === undefined && params.filter.trim() === '') return undefined;
  return listWindowOf(params);
}

/**
 * A case-insensitive "contains" on any of the expressions, the same on SQLite and PostgreSQL
 * (PostgreSQL's LIKE is case-sensitive, hence lower()); % and _ typed by the user match themselves.
 */
export function containsAny(expressions: RawBuilder<unknown>[], text: string): Expression<SqlBool> {
  const like = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const tests = expressions.map((expression) => sql<SqlBool>`lower(${expression}) like ${like} escape '\\'`);
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

/**
 * ORDER BY one of a list's allow-listed sort keys (the key picks fixed expressions, never text
 * from the request), then by id so that pages never share or skip a row.
 */
export function orderOf<Sort extends string>(
  expressions: Record<Sort, RawBuilder<unknown> | RawBuilder<unknown>[]>,
  page: Pick<ListPage<Sort>, 'sort' | 'order'>,
  id: RawBuilder<unknown> = sql`id`,
): RawBuilder<unknown> {
  const direction = page.order === 'desc' ? sql`desc` : sql`asc`;
  const keys = [expressions[page.sort]].flat();
  return sql.join(
    [...keys, id].map((key) => sql`${key} ${direction}`),
    sql`, `,
  );
}
