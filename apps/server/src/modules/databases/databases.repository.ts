import type { Db } from '../../db/database.ts';

export const databasesRepository = {
  list(db: Db, serviceId: number) {
    return db.selectFrom('hosted_databases').selectAll().where('service_id', '=', serviceId).orderBy('id').execute();
  },
  async count(db: Db, serviceId: number): Promise<number> {
    const row = await db
      .selectFrom('hosted_databases')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('service_id', '=', serviceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
  /** Every database of every service (for `databases sync`). */
  all(db: Db) {
    return db.selectFrom('hosted_databases').selectAll().orderBy('name').execute();
  },
  find(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('hosted_databases')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  findById(db: Db, id: number) {
    return db.selectFrom('hosted_databases').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** Every name starting with the prefix (across services: names are unique on the server). */
  async namesLike(db: Db, prefix: string): Promise<string[]> {
    const rows = await db
      .selectFrom('hosted_databases')
      .select('name')
      // _ is a LIKE wildcard (it matches itself too): the exact prefix is checked below.
      .where('name', 'like', `${prefix}%`)
      .execute();
    return rows.map((row) => row.name).filter((name) => name.startsWith(prefix));
  },
  insert(
    db: Db,
    row: {
      service_id: number;
      name: string;
      db_user: string;
      password_sealed: string;
      external_access: number;
      eliminable: number;
      created_at: number;
    },
  ) {
    return db.insertInto('hosted_databases').values(row).returningAll().executeTakeFirstOrThrow();
  },
  update(db: Db, serviceId: number, id: number, set: { password_sealed?: string; external_access?: number }) {
    return db
      .updateTable('hosted_databases')
      .set(set)
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** A new database's name and user, taken again (the server held the first one outside the panel). */
  rename(db: Db, serviceId: number, id: number, name: string) {
    return db
      .updateTable('hosted_databases')
      .set({ name, db_user: name })
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  delete(db: Db, serviceId: number, id: number) {
    return db.deleteFrom('hosted_databases').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },
};
