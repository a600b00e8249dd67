import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { BrandTable } from '../../db/schema.ts';

/** Brands and the hosts that answer with them, as the provider's CLI manages them. */
export const adminBrandRepository = {
  async idBySlug(db: Db, slug: string): Promise<number | undefined> {
    return (await db.selectFrom('brands').select('id').where('slug', '=', slug).executeTakeFirst())?.id;
  },

  async insert(db: Db, row: Insertable<BrandTable>): Promise<number> {
    return (await db.insertInto('brands').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },

  /** A host names one brand: adding it to another moves it. */
  setHost(db: Db, host: string, brandId: number) {
    return db
      .insertInto('brand_hosts')
      .values({ host, brand_id: brandId })
      .onConflict((oc) => oc.column('host').doUpdateSet({ brand_id: brandId }))
      .execute();
  },

  /** The number of brands changed (0 or 1). */
  async update(db: Db, slug: string, set: Record<string, string | number>): Promise<number> {
    const result = await db.updateTable('brands').set(set).where('slug', '=', slug).executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  clearDefaultExcept(db: Db, slug: string) {
    return db.updateTable('brands').set({ is_default: 0 }).where('slug', '!=', slug).execute();
  },

  /** The brand's first host name (its customers' address of the panel), if it has one. */
  async firstHost(db: Db, brandId: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('brand_hosts')
      .select('host')
      .where('brand_id', '=', brandId)
      .orderBy('host')
      .executeTakeFirst();
    return row?.host;
  },

  list(db: Db) {
    return db.selectFrom('brands').selectAll().orderBy('id').execute();
  },
};
