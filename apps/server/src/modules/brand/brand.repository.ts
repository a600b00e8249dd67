import type { Db } from '../../db/database.ts';

export const brandRepository = {
  findByHost(db: Db, host: string) {
    return db
      .selectFrom('brand_hosts as h')
      .innerJoin('brands as b', 'b.id', 'h.brand_id')
      .selectAll('b')
      .where('h.host', '=', host)
      .executeTakeFirst();
  },

  findDefault(db: Db) {
    return db.selectFrom('brands').selectAll().orderBy('is_default', 'desc').orderBy('id').limit(1).executeTakeFirst();
  },

  findById(db: Db, id: number) {
    return db.selectFrom('brands').selectAll().where('id', '=', id).executeTakeFirst();
  },
};
