import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_MAX_PER_USER,
  type ApiTokenCreatedData,
  type ApiTokenCreateParsed,
  type ApiTokenItem,
  type ApiTokenLevel,
  type ApiTokenListData,
  type ApiTokenResourcesData,
  type ApiTokensRevokeAllParams,
  type ApiTokensRevokedData,
} from '@panel247/contract/api-tokens';
import type { Language } from '@panel247/contract/constants';
import type { Db } from '../../db/database.ts';
import {
  ConflictError,
  FieldErrors,
  NotFoundError,
  SecondFactorSetupRequiredError,
  TokenRefusedError,
} from '../../errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import type { Actor } from './actor.ts';
import { apiTokenRepository } from './api-token.repository.ts';
import { authEvent } from './auth-event.ts';
import type { ClientCall } from './client-call.ts';
import type { PasskeyService } from './passkey.service.ts';
import { secondFactorMissing } from './second-factor-rule.ts';
import { type SecurityMail, utcMinute } from './security-mail.ts';
import { hashToken } from './session.service.ts';

const BEARER = /^Bearer[ ]+(p247_[A-Za-z0-9_-]{43})[ ]*$/i;
/** Last use is written at most once a minute per token (or when the address changes). */
const TOUCH_EVERY = 60;
const DAY = 86_400;
/** Resources named in the e-mail about a token; past them, how many more. */
const MAIL_SCOPE_NAMES = 10;

type StoredScope = { r: number; l: ApiTokenLevel }[];

function parseScope(json: string): Map<number, ApiTokenLevel> {
  const entries = JSON.parse(json) as StoredScope;
  return new Map(entries.map((entry) => [entry.r, entry.l === 'write' ? 'write' : 'read']));
}

/**
 * Personal API tokens: a user's credential for scripts, sent as `Authorization: Bearer …`. Only
 * its sha256 is stored; the secret is shown once at creation. A token reaches only the resources
 * of its scope, at most at its level there and never above its user's own levels (the guard caps
 * both, see PermissionService). Every call looks the token up afresh, so a revoked or expired
 * token is refused at once by every instance sharing the database.
 */
export class ApiTokenService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly passkeys: Pick<PasskeyService, 'confirmIdentity'>,
    private readonly mail: SecurityMail,
    private readonly now: () => number,
  ) {}

  /** The actor behind a Bearer token, or TokenRefusedError. */
  async authenticate(call: ClientCall): Promise<Actor> {
    const match = BEARER.exec(call.authorization ?? '');
    if (!match?.[1]) throw new TokenRefusedError();
    const row = await apiTokenRepository.findWithUser(this.db, hashToken(match[1]));
    const now = this.now();
    if (!row || Number(row.expires_at) <= now) throw new TokenRefusedError();
    const mustSetUpSecondFactor = secondFactorMissing(row);
    if (mustSetUpSecondFactor && !call.beforeSecondFactor) {
      throw new SecondFactorSetupRequiredError();
    }
    const lastUsed = row.last_used_at === null ? null : Number(row.last_used_at);
    if (lastUsed === null || now - lastUsed >= TOUCH_EVERY || row.last_used_ip !== call.ip) {
      await apiTokenRepository.touch(this.db, row.id, now, call.ip.slice(0, 64));
    }
    return {
      userId: row.user_id,
      accountId: row.account_id,
      brandId: row.brand_id,
      username: row.username,
      domainName: row.domain_name,
      // No session: an id no session can have, so nothing session-bound matches it.
      sessionId: `apitoken:${row.id}`,
      sessionCreatedAt: now,
      previousLoginAt: null,
      mustSetUpSecondFactor,
      tokenScope: parseScope(row.scope),
    };
  }

  async list(actor: Actor): Promise<ApiTokenListData> {
    const rows = await apiTokenRepository.listOfUser(this.db, actor.userId);
    const scopes = rows.map((row) => parseScope(row.scope));
    const known = await this.permissions.highestLevels(
      actor,
      scopes.flatMap((scope) => [...scope.keys()]),
    );
    return {
      tokens: rows.map((row, index) =>
        this.item(row, scopes[index] as Map<number, ApiTokenLevel>, (id) => known.get(id)?.reference),
      ),
    };
  }

  /** What a new token's scope may hold: each resource the user sees, at most at the user's level. */
  async resources(actor: Actor): Promise<ApiTokenResourcesData> {
    const { permissions } = await this.permissions.list(actor);
    const levels = await this.permissions.highestLevels(
      actor,
      permissions.map((entry) => entry.id),
    );
    return {
      resources: permissions.flatMap((entry) => {
        const held = levels.get(entry.id);
        return held ? [{ id: entry.id, reference: entry.reference, level: held.level }] : [];
      }),
    };
  }

  async create(
    actor: Actor,
    call: ClientCall,
    params: ApiTokenCreateParsed,
    language: Language,
  ): Promise<ApiTokenCreatedData> {
    const wanted = new Map<number, ApiTokenLevel>();
    for (const entry of params.scope) {
      const [id, level] = entry.split(':') as [string, ApiTokenLevel];
      if (wanted.has(Number(id))) throw FieldErrors.one('scope', 'apitokens.scope_repeated');
      wanted.set(Number(id), level);
    }
    // Never more than the user has: each resource visible to the user, `write` only where the
    // user can change something. The guard caps each call again with the user's levels then.
    const held = await this.permissions.highestLevels(actor, [...wanted.keys()]);
    for (const [id, level] of wanted) {
      const mine = held.get(id);
      if (!mine) throw FieldErrors.one('scope', 'apitokens.scope_unknown');
      if (level === 'write' && mine.level !== 'write') throw FieldErrors.one('scope', 'apitokens.scope_beyond_user');
    }
    const now = this.now();
    if ((await apiTokenRepository.countLive(this.db, actor.userId, now)) >= API_TOKEN_MAX_PER_USER) {
      throw new ConflictError('apitokens.too_many', { max: API_TOKEN_MAX_PER_USER });
    }
    // Last, so that a wrong scope does not use up the current code.
    await this.passkeys.confirmIdentity(actor, call, params);

    const token = `p247_${randomBytes(32).toString('base64url')}`;
    const stored: StoredScope = [...wanted].map(([r, l]) => ({ r, l }));
    const expiresAt = now + params.expiresInDays * DAY;
    const { id } = await apiTokenRepository.insert(this.db, {
      userId: actor.userId,
      name: params.name,
      tokenHash: hashToken(token),
      scope: JSON.stringify(stored),
      now,
      expiresAt,
    });
    authEvent(call, 'auth.api_token_created', actor.domainName, actor.username);
    const item = this.item(
      {
        id: Number(id),
        name: params.name,
        created_at: now,
        expires_at: expiresAt,
        last_used_at: null,
        last_used_ip: '',
      },
      wanted,
      (resourceId) => held.get(resourceId)?.reference,
    );
    await this.mailChange(actor, call, 'created', item, language);
    return { token, item };
  }

  async revoke(actor: Actor, call: ClientCall, id: number, language: Language): Promise<void> {
    const gone = await apiTokenRepository.deleteOfUser(this.db, actor.userId, id);
    if (!gone) throw new NotFoundError();
    authEvent(call, 'auth.api_token_revoked', actor.domainName, actor.username);
    const scope = parseScope(gone.scope);
    const known = await this.permissions.highestLevels(actor, [...scope.keys()]);
    const item = this.item(
      { ...gone, id, created_at: 0, last_used_at: null, last_used_ip: '' },
      scope,
      (resourceId) => known.get(resourceId)?.reference,
    );
    await this.mailChange(actor, call, 'revoked', item, language);
  }

  /**
   * Revokes every token of the user at once (a copy may have leaked, a machine was lost), after
   * the same re-authentication as creating one: a security change, mailed like the others.
   */
  /** Every token of a user ended at once (a manager disabled or removed them); how many there were. */
  endAllOfUser(userId: number): Promise<number> {
    return apiTokenRepository.deleteAllOfUser(this.db, userId);
  }

  async revokeAll(
    actor: Actor,
    call: ClientCall,
    params: ApiTokensRevokeAllParams,
    language: Language,
  ): Promise<ApiTokensRevokedData> {
    await this.passkeys.confirmIdentity(actor, call, params);
    const revoked = await apiTokenRepository.deleteAllOfUser(this.db, actor.userId);
    authEvent(call, 'auth.api_tokens_revoked_all', actor.domainName, actor.username);
    await this.mail.send(actor, call, {
      kind: 'security_api_tokens_revoked_all',
      subjectKey: 'apitokens.mail_subject_revoked_all',
      bodyKey: 'apitokens.mail_body_revoked_all',
      language,
      vars: { count: String(revoked) },
    });
    return { revoked };
  }

  /**
   * Deletes the tokens expired more than `days` ago (until then the list shows them as expired);
   * answers how many. One DELETE by date: see the purge in app.ts for why it needs no lease.
   */
  purgeExpired(days: number): Promise<number> {
    return apiTokenRepository.deleteExpiredBefore(this.db, this.now() - days * DAY);
  }

  /** The user's mail about a token: its name, scope and expiry; never the secret. */
  private mailChange(
    actor: Actor,
    call: ClientCall,
    change: 'created' | 'revoked',
    item: ApiTokenItem,
    language: Language,
  ) {
    const names = item.scope
      .slice(0, MAIL_SCOPE_NAMES)
      .map((entry) => `${entry.reference} (${translate(language, `apitokens.level_${entry.level}`)})`);
    const more = item.scope.length - names.length;
    if (more > 0) names.push(translate(language, 'apitokens.mail_scope_more', { count: more }));
    return this.mail.send(actor, call, {
      kind: `security_api_token_${change}`,
      subjectKey: `apitokens.mail_subject_${change}`,
      bodyKey: `apitokens.mail_body_${change}`,
      language,
      vars: { name: item.name, scope: names.join(', '), expires: utcMinute(item.expiresAt) },
    });
  }

  private item(
    row: {
      id: number;
      name: string;
      created_at: number;
      expires_at: number;
      last_used_at: number | null;
      last_used_ip: string;
    },
    scope: Map<number, ApiTokenLevel>,
    referenceOf: (id: number) => string | undefined,
  ): ApiTokenItem {
    return {
      id: Number(row.id),
      name: row.name,
      // A resource the user no longer sees is left out: the token cannot reach it any more.
      scope: [...scope]
        .map(([resourceId, level]) => ({ resourceId, level, reference: referenceOf(resourceId) ?? '' }))
        .filter((entry) => entry.reference !== ''),
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
      lastUsedIp: row.last_used_ip,
    };
  }
}
