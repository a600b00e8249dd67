import { type Kysely, sql } from 'kysely';

/**
 * Frozen on 2026-11-24: a catch-all alias no longer swallows the domain's mailboxes.
 *
 * Postfix tries `user@domain` in virtual_alias_maps, then `@domain`; the catch-all (an alias with
 * an empty local part) therefore rewrote mail for every mailbox of its domain too. The view now
 * also maps each mailbox to itself, the pattern Postfix's virtual(5) gives for catch-all
 * exceptions: the exact address is found first and, mapping to itself, ends the expansion.
 * Aliases and mailboxes of a service never share a local part (the panel refuses it), so a source
 * has one row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP VIEW IF EXISTS mail_aliases_view`.execute(db);
  await createMailAliasesView(db);
}

/** Exported for `mail sync`, which puts the view back as this migration made it (db/daemon-views.ts). */
export async function createMailAliasesView(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIEW mail_aliases_view AS
    SELECT a.local_part || '@' || r.reference_punycode AS source, a.targets AS destination
    FROM mail_aliases a JOIN resources r ON r.id = a.service_id
    WHERE r.has_mail = 1
    UNION ALL
    SELECT m.local_part || '@' || r.reference_punycode AS source,
           m.local_part || '@' || r.reference_punycode AS destination
    FROM mailboxes m JOIN resources r ON r.id = m.service_id
    WHERE r.has_mail = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP VIEW IF EXISTS mail_aliases_view`.execute(db);
  await sql`CREATE VIEW mail_aliases_view AS
    SELECT a.local_part || '@' || r.reference_punycode AS source, a.targets AS destination
    FROM mail_aliases a JOIN resources r ON r.id = a.service_id
    WHERE r.has_mail = 1`.execute(db);
}
