import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { signonTokenRepository } from './signon-token.repository.ts';

/** Which application redeems a token; a token issued for one kind never opens another. */
export type SignonKind = 'webmail' | 'webftp' | 'phpmyadmin' | 'panel-login';

/** Tokens live 60 s: long enough for the browser's auto-posted form, too short to be worth stealing. */
export const SIGNON_TOKEN_SECONDS = 60;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * One-time hand-off tokens. The panel issues one when a user opens WebMail, WebFTP or phpMyAdmin;
 * the browser posts it to that application, whose server trades it back here (server to server,
 * with its own shared key) for the account it opens. Only the token's hash is stored, each token
 * works once, and expired ones are swept on every redeem.
 */
export class SignonTokens {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  async issue(kind: SignonKind, subjectId: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await signonTokenRepository.insert(this.db, {
      token_hash: hash(token),
      kind,
      subject_id: subjectId,
      expires_at: this.now() + SIGNON_TOKEN_SECONDS,
    });
    return token;
  }

  /**
   * The subject a token was issued for, once; undefined when unknown, used, expired or of another
   * kind. The token is taken by one `DELETE … RETURNING`: of two concurrent redeems only the one
   * whose delete removed the row gets it (a read then a delete in a transaction let both through on
   * PostgreSQL, where READ COMMITTED lets both read the row before either deletes it).
   */
  async take(kind: SignonKind, token: string): Promise<number | undefined> {
    const now = this.now();
    const row = await signonTokenRepository.take(this.db, hash(token));
    await signonTokenRepository.deleteExpired(this.db, now);
    return row && row.kind === kind && row.expires_at >= now ? row.subject_id : undefined;
  }
}

/** Constant-time check of a redeeming application's shared key; no key configured means no redeem. */
export function sharedKeyMatches(expected: string | undefined, given: string): boolean {
  if (!expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
