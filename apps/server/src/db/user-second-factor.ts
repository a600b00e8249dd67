import type { ExpressionBuilder } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Whether the user `u` has a second factor (an enabled TOTP app, or a passkey), as a column
 * `second_factor`: SQLite answers it with 0/1, PostgreSQL with a boolean.
 */
export function secondFactorColumn(eb: ExpressionBuilder<Database & { u: Database['users'] }, 'u'>) {
  return eb
    .or([
      eb.exists(
        eb
          .selectFrom('user_totp as t')
          .select('t.user_id')
          .whereRef('t.user_id', '=', 'u.id')
          .where('t.enabled_at', 'is not', null),
      ),
      eb.exists(eb.selectFrom('user_passkeys as p').select('p.user_id').whereRef('p.user_id', '=', 'u.id')),
    ])
    .as('second_factor');
}
