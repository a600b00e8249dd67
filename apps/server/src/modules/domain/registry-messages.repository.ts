import type { Db } from '../../db/database.ts';

interface NewMessage {
  registry: string;
  message_id: string;
  domain: string;
  transfer_state: string;
  requested_by: string;
  requested_at: number;
  action_by: string;
  action_at: number;
  outgoing: number;
  text: string;
  queued_at: number;
  received_at: number;
}

/** The registries' poll messages as the panel kept them. */
export const registryMessagesRepository = {
  /** Keeps a message once: false when it was kept already (read again after a lost acknowledgement). */
  async insertOnce(db: Db, row: NewMessage): Promise<boolean> {
    const inserted = await db
      .insertInto('registry_messages')
      .values(row)
      .onConflict((oc) => oc.columns(['registry', 'message_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  /** The domain resource of a registered name. */
  async domainResource(db: Db, punycode: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('resources')
      .select('id')
      .where('reference_punycode', '=', punycode)
      .where('has_domain', '=', 1)
      .executeTakeFirst();
    return row?.id;
  },

  /** The newest transfer away of a domain the registries told of. */
  latestTransferOut(db: Db, punycode: string) {
    return db
      .selectFrom('registry_messages')
      .select(['transfer_state', 'requested_by', 'requested_at', 'action_at'])
      .where('domain', '=', punycode)
      .where('outgoing', '=', 1)
      .where('transfer_state', '!=', '')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /** The newest messages, for the CLI. */
  recent(db: Db, limit: number) {
    return db.selectFrom('registry_messages').selectAll().orderBy('id', 'desc').limit(limit).execute();
  },
};
