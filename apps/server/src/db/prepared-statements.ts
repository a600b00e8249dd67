import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Makes each pooled PostgreSQL connection prepare a query once and reuse its plan: Kysely sends
 * every query unnamed, so PostgreSQL parsed and planned it again on every call, which on a
 * 2-core machine under the mixed load cost PostgreSQL about 40 % of its throughput
 * (`npm run bench:mixed`). A query is named by a hash of its SQL text (one text, one name).
 *
 * Only queries with parameters are named (the same shape with other values), and at most
 * `perConnection` names per connection: texts that keep changing shape (an IN list of another
 * length, a bulk insert of another size) then run unnamed instead of growing the server's memory.
 * Turn it off (`PANEL_DATABASE_PREPARED_STATEMENTS=false`) behind a pooler that cannot keep
 * prepared statements (PgBouncer in transaction mode before 1.21).
 */
export function preparePooledStatements(pool: pg.Pool, perConnection = 500): void {
  pool.on('connect', (client) => {
    const named = new Set<string>();
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const namedQuery = (text: unknown, values?: unknown, ...rest: unknown[]) => {
      if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
        return query(text, values, ...rest);
      }
      const name = createHash('sha1').update(text).digest('base64url');
      if (!named.has(name)) {
        if (named.size >= perConnection) return query(text, values, ...rest);
        named.add(name);
      }
      return query({ name, text, values }, ...rest);
    };
    Object.assign(client, { query: namedQuery });
  });
}
