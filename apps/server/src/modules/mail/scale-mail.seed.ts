import { isAliasTarget, mailLocalPartProblem } from '@panel247/contract/mail-rules';
import { inChunks, numbered } from '../../db/bulk-insert.ts';
import type { Db } from '../../db/database.ts';
import { hashPassword } from '../auth/password-hasher.ts';
import { mailRepository } from './mail.repository.ts';

/**
 * The scale data set's mail: `mailboxes` accounts (user00001…) and `aliases` aliases
 * (alias00001… → the account of the same number, or the first one), inserted in bulk in one
 * transaction. Once: a service that already has mail is left alone. One argon2id hash serves
 * every account (one per row would take minutes). Returns how many of each went in.
 */
export async function seedScaleMail(
  db: Db,
  service: { id: number; domain: string },
  counts: { mailboxes: number; aliases: number; quotaMb: number; password: string },
  now: number,
): Promise<{ mailboxes: number; aliases: number }> {
  const [boxes, aliases] = await Promise.all([
    mailRepository.mailboxes(db, service.id),
    mailRepository.aliases(db, service.id),
  ]);
  if (boxes.length > 0 || aliases.length > 0) return { mailboxes: 0, aliases: 0 };
  const hash = `{ARGON2ID}${await hashPassword(counts.password)}`;
  const width = Math.max(counts.mailboxes, counts.aliases);
  const boxRows = Array.from({ length: counts.mailboxes }, (_, i) => ({
    service_id: service.id,
    local_part: numbered('user', i + 1, width),
    password_hash: hash,
    quota_bytes: counts.quotaMb * 1024 * 1024,
    created_at: now,
  }));
  const aliasRows = Array.from({ length: counts.aliases }, (_, i) => {
    const target = boxRows[i] ?? boxRows[0];
    return {
      service_id: service.id,
      local_part: numbered('alias', i + 1, width),
      targets: target ? `${target.local_part}@${service.domain}` : `postmaster@${service.domain}`,
      created_at: now,
    };
  });
  // The same rules as the create calls: a set anyone can reproduce is one the panel accepts.
  for (const row of [...boxRows, ...aliasRows]) {
    if (mailLocalPartProblem(row.local_part, false)) throw new Error(`Invalid mail name ${row.local_part}`);
  }
  const badTarget = aliasRows.find((row) => !isAliasTarget(row.targets));
  if (badTarget) throw new Error(`Invalid alias target ${badTarget.targets}`);
  await db.transaction().execute(async (trx) => {
    await inChunks(boxRows, (chunk) => mailRepository.insertMailboxes(trx, chunk));
    await inChunks(aliasRows, (chunk) => mailRepository.insertAliases(trx, chunk));
  });
  return { mailboxes: boxRows.length, aliases: aliasRows.length };
}
