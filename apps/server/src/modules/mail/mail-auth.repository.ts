import type { Db } from '../../db/database.ts';
import type { MailDkimKeyTable } from '../../db/schema.ts';

export type DkimKeyRow = Omit<MailDkimKeyTable, 'id'> & { id: number };

/** DKIM keys and the DMARC/SPF form's choices, always scoped by the service. */
export const mailAuthRepository = {
  keys(db: Db, serviceId: number): Promise<DkimKeyRow[]> {
    return db
      .selectFrom('mail_dkim_keys')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  async insertKey(db: Db, row: Omit<DkimKeyRow, 'id'>): Promise<DkimKeyRow> {
    return db.insertInto('mail_dkim_keys').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /**
   * The new key signs from now on: it becomes active, and the active key of its algorithm it
   * replaces starts retiring (its record withdrawn at `retireAt`).
   */
  async activate(db: Db, serviceId: number, key: DkimKeyRow, now: number, retireAt: number): Promise<void> {
    await db
      .updateTable('mail_dkim_keys')
      .set({ state: 'retiring', retire_at: retireAt })
      .where('service_id', '=', serviceId)
      .where('algorithm', '=', key.algorithm)
      .where('state', '=', 'active')
      .execute();
    await db
      .updateTable('mail_dkim_keys')
      .set({ state: 'active', activated_at: now })
      .where('service_id', '=', serviceId)
      .where('id', '=', key.id)
      .execute();
  },

  async deleteKey(db: Db, serviceId: number, id: number): Promise<void> {
    await db.deleteFrom('mail_dkim_keys').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },

  /** Services whose rotation has a step left (a key to switch to, or one to withdraw), with their domain. */
  rotating(db: Db) {
    return db
      .selectFrom('mail_dkim_keys as k')
      .innerJoin('resources as r', 'r.id', 'k.service_id')
      .select(['k.service_id', 'r.reference', 'r.reference_punycode'])
      .where('k.state', 'in', ['pending', 'retiring'])
      .groupBy(['k.service_id', 'r.reference', 'r.reference_punycode'])
      .execute();
  },

  /** Every signing key of every service whose mail is on (for the signer's sync). */
  activeKeys(db: Db) {
    return db
      .selectFrom('mail_dkim_keys as k')
      .innerJoin('resources as r', 'r.id', 'k.service_id')
      .select(['r.reference_punycode as domain', 'k.selector', 'k.algorithm', 'k.private_key'])
      .where('k.state', '=', 'active')
      .where('r.has_mail', '=', 1)
      .orderBy('r.reference_punycode')
      .orderBy('k.id')
      .execute();
  },

  policy(db: Db, serviceId: number) {
    return db.selectFrom('mail_auth_policies').selectAll().where('service_id', '=', serviceId).executeTakeFirst();
  },

  async savePolicy(
    db: Db,
    row: {
      service_id: number;
      spf_includes: string;
      dmarc_policy: string;
      dmarc_pct: number;
      dmarc_rua: string;
      updated_at: number;
    },
  ): Promise<void> {
    const { service_id: _, ...set } = row;
    await db
      .insertInto('mail_auth_policies')
      .values(row)
      .onConflict((conflict) => conflict.column('service_id').doUpdateSet(set))
      .execute();
  },
};
