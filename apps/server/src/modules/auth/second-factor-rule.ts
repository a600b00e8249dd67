/**
 * Whether a user must set up a second factor before anything else: their brand requires one, or
 * a manager of their account reset theirs (`second_factor_required`), and they have neither a
 * TOTP app nor a passkey.
 */
export function secondFactorMissing(row: {
  require_2fa: number;
  second_factor_required: number;
  totp_enabled_at: number | null;
  /** SQLite answers the EXISTS with 0/1, PostgreSQL with a boolean. */
  has_passkey: unknown;
}): boolean {
  return secondFactorRequired(row) && !row.totp_enabled_at && !Number(row.has_passkey);
}

/** The brand's rule, or the user's own after a manager reset their second factor. */
export function secondFactorRequired(row: { require_2fa: number; second_factor_required: number }): boolean {
  return row.require_2fa === 1 || row.second_factor_required === 1;
}
