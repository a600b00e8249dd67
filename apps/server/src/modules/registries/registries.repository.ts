import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { EppRegistryTable } from '../../db/schema.ts';

export const registriesRepository = {
  list(db: Db) {
    return db.selectFrom('epp_registries').selectAll().orderBy('name').execute();
  },

  byName(db: Db, name: string) {
    return db.selectFrom('epp_registries').selectAll().where('name', '=', name).executeTakeFirst();
  },

  async insert(db: Db, row: Insertable<EppRegistryTable>): Promise<boolean> {
    const inserted = await db
      .insertInto('epp_registries')
      .values(row)
      .onConflict((conflict) => conflict.column('name').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  async update(db: Db, name: string, set: Updateable<EppRegistryTable>): Promise<boolean> {
    const result = await db.updateTable('epp_registries').set(set).where('name', '=', name).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async remove(db: Db, name: string): Promise<boolean> {
    const result = await db.deleteFrom('epp_registries').where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};
