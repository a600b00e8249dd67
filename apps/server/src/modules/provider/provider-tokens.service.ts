import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { ConflictError, NotFoundError, ProviderAuthError } from '../../errors.ts';
import { providerTokensRepository } from './provider-tokens.repository.ts';

/** Who calls the provisioning API: one of the provider's tokens. */
export interface ProviderCaller {
  tokenId: number;
  name: string;
}

export interface ProviderTokenView {
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** `p247p_` and 32 random bytes: apart from customers' `p247_` tokens at a glance (and in a leak scan). */
const TOKEN = /^p247p_[A-Za-z0-9_-]{43}$/;
export const PROVIDER_TOKEN_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The provider's tokens for its own systems (billing): made and revoked from the CLI, shown once,
 * kept as their SHA-256 (32 random bytes need no slow hash). A customer's token is never one of
 * these, and these open no customer route.
 */
export class ProviderTokensService {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  async add(name: string): Promise<string> {
    if (!PROVIDER_TOKEN_NAME.test(name)) throw new ConflictError('provider.error.token_name');
    if (await providerTokensRepository.byName(this.db, name))
      throw new ConflictError('provider.error.token_taken', { name });
    const token = `p247p_${randomBytes(32).toString('base64url')}`;
    await providerTokensRepository.insert(this.db, { name, token_hash: hash(token), created_at: this.now() });
    return token;
  }

  async list(): Promise<ProviderTokenView[]> {
    return (await providerTokensRepository.list(this.db)).map((row) => ({
      name: row.name,
      createdAt: Number(row.created_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
      revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    }));
  }

  async revoke(name: string): Promise<void> {
    const row = await providerTokensRepository.byName(this.db, name);
    if (!row) throw new NotFoundError('provider.error.token_unknown');
    if (row.revoked_at === null) await providerTokensRepository.revoke(this.db, row.id, this.now());
  }

  /** The caller of an `Authorization: Bearer p247p_…` header, or 401. */
  async authenticate(authorization: string | undefined): Promise<ProviderCaller> {
    const token = /^bearer (\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
    if (!TOKEN.test(token)) throw new ProviderAuthError();
    const row = await providerTokensRepository.byHash(this.db, hash(token));
    if (!row || row.revoked_at !== null) throw new ProviderAuthError();
    await providerTokensRepository.used(this.db, row.id, this.now());
    return { tokenId: row.id, name: row.name };
  }
}
