import type { Db } from '../../db/database.ts';

/** A brand's legal texts, by kind and language. */
export const legalRepository = {
  texts(db: Db, brandId: number, kind: string, languages: string[]) {
    return db
      .selectFrom('legal_texts')
      .select(['language', 'title', 'body', 'redirect_to'])
      .where('brand_id', '=', brandId)
      .where('kind', '=', kind)
      .where('language', 'in', languages)
      .execute();
  },

  /** Writes the text of one kind and language, replacing the one there was. */
  upsert(
    db: Db,
    row: { brand_id: number; kind: string; language: string; title: string; body: string; redirect_to: string },
  ) {
    return db
      .insertInto('legal_texts')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['brand_id', 'kind', 'language'])
          .doUpdateSet({ title: row.title, body: row.body, redirect_to: row.redirect_to }),
      )
      .execute();
  },
};
