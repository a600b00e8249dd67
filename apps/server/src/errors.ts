/**
 * Typed errors. Thrown anywhere; the one handler in http/error-handler.ts turns them into the
 * envelope. Messages are i18n keys, translated per request.
 */

export type MessageParams = Record<string, string | number>;

export abstract class AppError extends Error {
  abstract readonly httpStatus: number;
  /** The envelope's system.statusCode; the HTTP status unless a subclass says otherwise. */
  get statusCode(): number {
    return this.httpStatus;
  }
  constructor(
    readonly messageKey: string,
    readonly params: MessageParams = {},
  ) {
    super(messageKey);
  }
}

export class NotFoundError extends AppError {
  readonly httpStatus = 404;
  constructor(messageKey = 'error.not_found') {
    super(messageKey);
  }
}

/** The provider suspended the account's services: its users are told why instead of let in. */
export class AccountSuspendedError extends AppError {
  readonly httpStatus = 403;
  constructor(reason: string) {
    super(reason === '' ? 'auth.suspended' : 'auth.suspended_because', { reason });
  }
}

/** No valid provider token on a provisioning call: 401, and nothing said of why. */
export class ProviderAuthError extends AppError {
  readonly httpStatus = 401;
  constructor() {
    super('provider.error.token');
  }
}

export class ForbiddenError extends AppError {
  readonly httpStatus = 403;
  constructor(messageKey = 'main.no_permission') {
    super(messageKey);
  }
}

/** The brand requires two factors and this user has none yet: only setting one up is allowed. */
export class SecondFactorSetupRequiredError extends ForbiddenError {
  constructor() {
    super('twofactor.setup_required');
  }
}

/** The request failed the CSRF rules. */
export class CsrfError extends ForbiddenError {
  constructor() {
    super('error.csrf');
  }
}

/** No valid session: system.statusCode 101 makes the client open its login modal. */
export class SessionLostError extends AppError {
  readonly httpStatus = 401;
  override get statusCode() {
    return 101;
  }
  constructor() {
    super('error.session_lost');
  }
}

/**
 * An API token that is malformed, unknown, expired or revoked: a plain 401 (the client is a
 * program, there is no login form to open).
 */
export class TokenRefusedError extends AppError {
  readonly httpStatus = 401;
  constructor() {
    super('apitokens.refused');
  }
}

/** The change clashes with what exists: a plan limit reached, a state that does not allow it. */
export class ConflictError extends AppError {
  readonly httpStatus = 409;
}

/** A plan's space is used up (507 Insufficient Storage): unlike a conflict, trying again will not help. */
export class QuotaError extends AppError {
  readonly httpStatus = 507;
}

export class RateLimitedError extends AppError {
  readonly httpStatus = 429;
}

export interface FieldError {
  field: string;
  messageKey: string;
  params?: MessageParams;
}

/** One or more invalid fields: fills system.inputs/errors by position. */
export class FieldErrors extends AppError {
  readonly httpStatus = 400;
  constructor(readonly fields: FieldError[]) {
    super(fields[0]?.messageKey ?? 'validation.invalid');
  }
  static one(field: string, messageKey: string, params?: MessageParams) {
    return new FieldErrors([{ field, messageKey, params }]);
  }
}

/** A contract rule's answer (an i18n key or nothing) as the field errors it makes. */
export function fieldProblem(field: string, messageKey: string | undefined): FieldError[] {
  return messageKey === undefined ? [] : [{ field, messageKey }];
}

/** A daemon refused the change or could not be reached; nothing was applied. */
export class DaemonError extends AppError {
  readonly httpStatus = 502;
  constructor(
    messageKey: string,
    readonly detail: string,
    params: MessageParams = {},
  ) {
    super(messageKey, params);
  }
}

/**
 * The server a service lives on did not answer (its agent is down, frozen or cut off): nothing
 * was read or done there. What only informs a page (a size, a hint) is shown without it.
 */
export class NodeUnreachableError extends DaemonError {
  constructor(detail: string) {
    super('error.node_unreachable', detail);
  }
}
