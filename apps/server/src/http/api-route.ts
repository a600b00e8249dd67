import type { Language } from '@panel247/contract/constants';
import type { System } from '@panel247/contract/envelope';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { NotFoundError } from '../errors.ts';
import { translate } from '../i18n/messages.ts';
import { withActivityNotes } from '../modules/activity/activity-context.ts';
import { type SecurityEvent, takeSecurityEvents } from '../modules/activity/activity-notes.ts';
import type { Actor } from '../modules/auth/actor.ts';
import type { ClientCall } from '../modules/auth/client-call.ts';
import type { StaffCaller } from '../modules/console/staff-auth.service.ts';
import { type ProviderIdempotency, requestHash } from '../modules/provider/provider-idempotency.ts';
import type { ProviderCaller } from '../modules/provider/provider-tokens.service.ts';
import { sendAnswer } from './answer-encoding.ts';
import { clientCallOf } from './client-call-of.ts';
import { successEnvelopeJson } from './envelope.ts';
import { requestLanguage } from './request-context.ts';
import { toFieldErrors } from './zod-field-errors.ts';

export interface RouteContext<P> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The call as the services know it (no Fastify objects past the route). */
  call: ClientCall;
  params: P;
  language: Language;
}

export interface RouteResult<D> {
  data: D;
  /** i18n keys of success messages; the first becomes the client's toast. */
  info?: string[];
  job?: System['job'];
  /** `data` already serialised (a cached large answer): spliced into the envelope as it is. */
  dataJson?: string;
  /**
   * An object that lives exactly as long as `data` stays the same (its cache entry): a plain
   * success then gets an ETag, a 304 on a matching If-None-Match, and is compressed once.
   */
  unchangedWhile?: object;
}

/** What an API route needs from the session layer: an actor, or SessionLostError. */
export interface Authenticator {
  authenticate(call: ClientCall): Promise<Actor>;
}

/** Where the router writes what each call did (see modules/activity). */
export interface ActivityRecorder {
  /** After a call succeeded: the change the guard allowed, if it allowed one. */
  recordChange(
    call: ClientCall,
    actor: Actor,
    route: { url: string; activityAction?: string },
    params: unknown,
  ): Promise<void>;
  /** After any call, failed or not: the logins and security changes it noted. */
  recordSecurityEvents(call: ClientCall, actor: Actor | undefined, events: SecurityEvent[]): Promise<void>;
}

/** What the OpenAPI document says of a route: every route declared here is described. */
export interface DescribedRoute {
  methods: ('GET' | 'POST')[];
  /** Under the base path, Fastify's form (`service/:id/dns/list/`). */
  url: string;
  params: z.ZodType;
  data?: z.ZodType;
  needsSession: boolean;
  /** A provisioning call: a provider token, never a session or a customer's token. */
  provider?: boolean;
  /** A creating call that needs an Idempotency-Key header. */
  idempotent?: boolean;
  /** A call of the provider's console: a staff session, never a customer's. */
  staff?: boolean;
}

/** What the provisioning API's routes need: who the provider's token is, and its calls' keys. */
export interface ProviderGate {
  authenticate(authorization: string | undefined): Promise<ProviderCaller>;
  idempotency: Pick<ProviderIdempotency, 'claim' | 'finish'>;
}

interface RouteOptions<S extends z.ZodType, D> {
  /** GET for calls without parameters; POST for the rest. Both may be listed. */
  method: 'GET' | 'POST' | ('GET' | 'POST')[];
  /** Path under the base path, e.g. `user/info/` or `permission/:id/`. */
  url: string;
  params: S;
  /** Validates answers against the contract while testing, catching drift early. */
  data?: z.ZodType<D>;
  /**
   * Allowed to a user who must still set up a second factor (the brand requires one): the shell's
   * own calls and the set-up itself. Every other session call answers that the set-up comes first.
   */
  beforeSecondFactor?: boolean;
  /** A larger body than the server's default (bytes), for the few calls that carry a file's text. */
  bodyLimit?: number;
  /**
   * The call's name in the activity log where its path without ids would name another call too
   * (`dns/delete` deletes one record, `dns/delete_all` every one).
   */
  activityAction?: string;
}

type ProviderRouteOptions<S extends z.ZodType, D> = Omit<
  RouteOptions<S, D>,
  'beforeSecondFactor' | 'activityAction'
> & {
  /** A creating call: its Idempotency-Key header is required, and its answer kept for a retry. */
  idempotent?: boolean;
  /**
   * What a creating call makes (a service's domain): removing it (a termination) forgets the
   * call's key, so that making it again with the same key makes it anew.
   */
  subject?: (params: z.output<S>) => string;
};

export interface ApiRouter {
  /** A call that needs no session. */
  public<S extends z.ZodType, D>(
    options: RouteOptions<S, D>,
    handler: (ctx: RouteContext<z.output<S>>) => Promise<RouteResult<D>>,
  ): void;
  /** A session-bound call: without a valid session it answers statusCode 101. */
  session<S extends z.ZodType, D>(
    options: RouteOptions<S, D>,
    handler: (ctx: RouteContext<z.output<S>> & { actor: Actor }) => Promise<RouteResult<D>>,
  ): void;
  /** A provisioning call (see ProviderGate): without a valid provider token it answers 401. */
  provider<S extends z.ZodType, D>(
    options: ProviderRouteOptions<S, D>,
    handler: (ctx: RouteContext<z.output<S>> & { provider: ProviderCaller }) => Promise<RouteResult<D>>,
  ): void;
  /** A call of the provider's console (see StaffGate): without a staff session it answers 401. */
  staff<S extends z.ZodType, D>(
    options: Omit<RouteOptions<S, D>, 'beforeSecondFactor' | 'activityAction'>,
    handler: (ctx: RouteContext<z.output<S>> & { staff: StaffCaller }) => Promise<RouteResult<D>>,
  ): void;
}

/** Who the console's calls are made by: the staff session of the call's cookie. */
export interface StaffGate {
  authenticate(call: ClientCall): Promise<StaffCaller>;
}

/**
 * The one way routes are declared: parameters come from the query, the form body and the URL
 * (in that order of precedence, URL last so it cannot be overridden), are parsed with the
 * contract's schema, and the answer is wrapped in the envelope.
 */
export function createApiRouter(
  app: FastifyInstance,
  options: {
    basePath: string;
    defaultLanguage: Language;
    auth: Authenticator;
    checkAnswers: boolean;
    /** Collects every declared route, for the OpenAPI document. */
    catalogue?: DescribedRoute[];
    activity?: ActivityRecorder;
    provider?: ProviderGate;
    staff?: StaffGate;
  },
): ApiRouter {
  function register<S extends z.ZodType, D>(
    route: RouteOptions<S, D> & { idempotent?: boolean; subject?: (params: z.output<S>) => string },
    access: 'public' | 'session' | 'provider' | 'staff',
    handler: (
      ctx: RouteContext<z.output<S>> & { actor: Actor; provider: ProviderCaller; staff: StaffCaller },
    ) => Promise<RouteResult<D>>,
  ) {
    const needsSession = access === 'session';
    options.catalogue?.push({
      methods: Array.isArray(route.method) ? route.method : [route.method],
      url: route.url,
      params: route.params,
      data: route.data,
      needsSession,
      ...(access === 'provider' ? { provider: true, idempotent: route.idempotent === true } : {}),
      ...(access === 'staff' ? { staff: true } : {}),
    });
    app.route({
      method: route.method,
      url: `${options.basePath}${route.url}`,
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      ...(route.beforeSecondFactor ? { config: { beforeSecondFactor: true } } : {}),
      handler: async (request, reply) => {
        const call = clientCallOf(request, reply);
        const caller: { actor?: Actor } = {};
        try {
          return await answer(request, reply, call, caller);
        } catch (error) {
          // a failed login is as much the log's as a successful one
          await recordSecurityEvents(call, caller.actor);
          throw error;
        }
      },
    });

    async function answer(request: FastifyRequest, reply: FastifyReply, call: ClientCall, caller: { actor?: Actor }) {
      const language = requestLanguage(request, options.defaultLanguage);
      const provider = access === 'provider' ? await providerGate().authenticate(call.authorization) : undefined;
      const staff = access === 'staff' ? await staffGate().authenticate(call) : undefined;
      const actor = needsSession ? await options.auth.authenticate(call) : (undefined as unknown as Actor);
      if (actor) {
        actor.activity = {};
        caller.actor = actor;
      }
      const input = {
        ...(request.query as object),
        ...(typeof request.body === 'object' && request.body !== null ? request.body : {}),
        ...(request.params as object),
      } as Record<string, unknown>;
      const parsed = route.params.safeParse(input);
      if (!parsed.success) {
        // A path segment that fails its schema (`permission/abc/`) names nothing that exists:
        // the answer is the unknown id's 404, as for the download routes, not a field error.
        const pathKeys = Object.keys((request.params as object | undefined) ?? {});
        if (parsed.error.issues.some((issue) => pathKeys.includes(String(issue.path[0])))) throw new NotFoundError();
        throw toFieldErrors(parsed.error, input);
      }
      const key = request.headers['idempotency-key'];
      const claimed =
        provider && route.idempotent
          ? {
              key: typeof key === 'string' ? key : '',
              claim: await providerGate().idempotency.claim(
                provider.tokenId,
                typeof key === 'string' ? key : undefined,
                requestHash(request.method, route.url, parsed.data as Record<string, unknown>),
                route.subject?.(parsed.data) ?? null,
              ),
            }
          : undefined;
      if (claimed?.claim.kind === 'replay') {
        reply.header('idempotent-replayed', 'true').header('cache-control', 'no-store');
        return reply.code(claimed.claim.statusCode).type('application/json; charset=utf-8').send(claimed.claim.answer);
      }
      let result: RouteResult<D>;
      try {
        result = await withActivityNotes(actor?.activity, () =>
          handler({
            request,
            reply,
            call,
            params: parsed.data,
            language,
            actor,
            provider: provider as ProviderCaller,
            staff: staff as StaffCaller,
          }),
        );
      } catch (error) {
        // a refusal or failure is answered again by doing the call again: the key is freed
        if (claimed && provider) await providerGate().idempotency.finish(provider.tokenId, claimed.key, 500, '');
        throw error;
      }
      if (options.checkAnswers && route.data) route.data.parse(result.data);
      // Written before the answer goes out, so the next call of the client already finds them.
      if (actor?.activity?.change) await options.activity?.recordChange(call, actor, route, parsed.data);
      await recordSecurityEvents(call, actor);
      const work = actor?.pendingWork;
      const infoKeys = [
        ...(result.info ?? []),
        ...(work ? [work.failed ? 'work.failed_retrying' : 'work.being_applied'] : []),
      ];
      const info = infoKeys.map((key) => translate(language, key));
      const dataJson = result.dataJson ?? JSON.stringify(result.data);
      const job =
        result.job ?? (work ? { id: work.jobId, status: work.failed ? 'failed' : 'queued', progress: 0 } : null);
      // Only a plain success is the same text for as long as its data is (messages are per language).
      const unchangedWhile = info.length === 0 && !job ? result.unchangedWhile : undefined;
      const body = successEnvelopeJson(dataJson, info, job);
      if (claimed && provider) await providerGate().idempotency.finish(provider.tokenId, claimed.key, 200, body);
      return sendAnswer(request, reply, body, unchangedWhile);
    }
  }
  function providerGate(): ProviderGate {
    if (!options.provider) throw new Error('provisioning routes need the router’s provider gate');
    return options.provider;
  }
  function staffGate(): StaffGate {
    if (!options.staff) throw new Error('console routes need the router’s staff gate');
    return options.staff;
  }
  async function recordSecurityEvents(call: ClientCall, actor: Actor | undefined) {
    const events = takeSecurityEvents(call);
    if (events.length > 0) await options.activity?.recordSecurityEvents(call, actor, events);
  }

  return {
    public: (route, handler) => register(route, 'public', handler),
    session: (route, handler) => register(route, 'session', handler),
    provider: (route, handler) => register(route, 'provider', handler),
    staff: (route, handler) => register(route, 'staff', handler),
  };
}
