import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export const healthRepository = {
  /** The cheapest round trip the database answers. */
  async ping(db: Db): Promise<void> {
    await sql`SELECT 1`.execute(db);
  },
};
