import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyWebsocket from '@fastify/websocket';
import { VIEW_COOKIE } from '@panel247/contract/constants';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { bindPanelWork, composePanel, type PanelServices, panelReady } from './composition/panel-services.ts';
import type { AppConfig } from './config.ts';
import type { Db } from './db/database.ts';
import { isPostgresDb } from './db/database.ts';
import { createDnsDriver } from './drivers/dns/create-dns-driver.ts';
import type { DnsDriver } from './drivers/dns/dns.driver.ts';
import { CsrfError } from './errors.ts';
import { createApiRouter, type DescribedRoute } from './http/api-route.ts';
import { bootDataOf, pageCaller } from './http/boot-data.ts';
import { clientCallOf } from './http/client-call-of.ts';
import { limitConnections, timeoutOptions } from './http/connection-limits.ts';
import { csrfAllows, matchedRoute } from './http/csrf.ts';
import { registerDefaultLogos } from './http/default-logos.ts';
import { installErrorHandler, routerErrorHandler } from './http/error-handler.ts';
import { parseFormBody } from './http/form-body.ts';
import { lazyChildLoggerFactory } from './http/lazy-child-logger.ts';
import { registerOpenApiRoute } from './http/openapi.ts';
import { forLog } from './http/request-context.ts';
import { apiSecurityHeaders, computeSecurityHeaders, PANEL_HELMET_OPTIONS } from './http/security-headers.ts';
import { drawSignedInPage } from './http/server-draw.ts';
import { PageRenderer, rendererFile } from './http/server-render.ts';
import { viewHintsOf } from './http/view-hints.ts';
import { registerWebApp } from './http/web-app.ts';
import { EmbeddedEngine } from './jobs/embedded-engine.ts';
import type { JobEngine } from './jobs/job-engine.ts';
import { PlacedJobs } from './jobs/placed-jobs.ts';
import { registerActivityRoutes } from './modules/activity/activity.routes.ts';
import { registerApiTokenRoutes } from './modules/auth/api-token.routes.ts';
import { registerPasskeyRoutes } from './modules/auth/passkey.routes.ts';
import { RequestAuthenticator } from './modules/auth/request-authenticator.ts';
import { registerTwoFactorRoutes } from './modules/auth/two-factor.routes.ts';
import { registerUserRoutes } from './modules/auth/user.routes.ts';
import { registerUserSessionsRoutes } from './modules/auth/user-sessions.routes.ts';
import { registerBackupRoutes } from './modules/backups/backups.routes.ts';
import { registerConfigRoutes } from './modules/brand/config.routes.ts';
import { AltchaVerifier } from './modules/captcha/altcha.verifier.ts';
import { registerCaptchaRoutes } from './modules/captcha/captcha.routes.ts';
import { registerConsoleRoutes } from './modules/console/console.routes.ts';
import { registerContactRoutes } from './modules/contact/contact.routes.ts';
import type { Mailer } from './modules/contact/mailer.ts';
import { registerCronRoutes } from './modules/cron/cron.routes.ts';
import { registerDatabasesRoutes } from './modules/databases/databases.routes.ts';
import { registerDnsExportRoute, registerDnsRoutes } from './modules/dns/dns.routes.ts';
import { registerDnssecRoutes } from './modules/domain/dnssec.routes.ts';
import { registerDomainRoutes } from './modules/domain/domain.routes.ts';
import { registerFilesRoutes } from './modules/files/files.routes.ts';
import { registerFtpRoutes } from './modules/ftp/ftp.routes.ts';
import { registerHealthRoute } from './modules/health/health.routes.ts';
import { registerHostingRoutes } from './modules/hosting/hosting.routes.ts';
import { registerInstallerRoutes } from './modules/installer/installer.routes.ts';
import { registerLegalRoutes } from './modules/legal/legal.routes.ts';
import { registerMailRoutes } from './modules/mail/mail.routes.ts';
import { registerMailAuthRoutes } from './modules/mail/mail-auth.routes.ts';
import { registerMailSpamRoutes } from './modules/mail/mail-spam.routes.ts';
import { registerMailClientSetupRoutes } from './modules/mail-client-setup/mail-client-setup.routes.ts';
import { registerPermissionRoutes } from './modules/permission/permission.routes.ts';
import { registerLoginLinkRoute } from './modules/provider/login-link.routes.ts';
import { registerProviderRoutes } from './modules/provider/provider.routes.ts';
import type { EventBus } from './modules/realtime/event-bus.ts';
import { registerRealtimeRoutes } from './modules/realtime/realtime.routes.ts';
import { registerStatsRoutes } from './modules/stats/stats.routes.ts';
import { registerAccountUsersRoutes } from './modules/users/account-users.routes.ts';

export interface AppDeps {
  config: AppConfig;
  db: Db;
  events: EventBus;
  secretKey: Buffer;
  /** Epoch milliseconds; tests move time forward without waiting. */
  clock?: () => number;
  mailer?: Mailer;
  dnsDriver?: DnsDriver;
  logger?: FastifyServerOptions['logger'];
  /** Parse every answer with its contract schema (on in tests). */
  checkAnswers?: boolean;
  /**
   * The work log (not started: the app starts its workers and stops it on close). Default: the
   * embedded engine on a SQLite database; PostgreSQL needs pg-boss, made from the connection string.
   */
  jobs?: JobEngine;
}

export interface PanelApp {
  app: FastifyInstance;
  /** Every service of the panel (composition/panel-services.ts); `jobs` is the work log its workers take jobs from. */
  services: PanelServices;
}

/** Builds the whole panel without listening, so tests can `inject` into it. */
export async function buildApp(deps: AppDeps): Promise<PanelApp> {
  const { config, db, events } = deps;
  const clock = deps.clock ?? Date.now;
  const now = () => Math.floor(clock() / 1000);
  const basePath = config.basePath;

  // Documents get all of helmet's headers; JSON answers only those that mean something for
  // them (CSP and friends govern documents, and each header costs on every call).
  const documentHeaders = computeSecurityHeaders(PANEL_HELMET_OPTIONS);
  const apiHeaders = apiSecurityHeaders(documentHeaders);

  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 256 * 1024,
    genReqId: () => crypto.randomUUID(),
    childLoggerFactory: lazyChildLoggerFactory,
    // Per-request lines only when debugging: auth events and errors are logged on their own.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    ...timeoutOptions(config.limits),
    frameworkErrors: routerErrorHandler({
      basePath,
      defaultLanguage: config.defaultLanguage,
      apiHeaders,
      documentHeaders,
    }),
  });

  limitConnections(app.server, config.limits);
  const jobs = deps.jobs ?? embeddedJobs(db);
  jobs.onError = (error) => app.log.error({ err: error, event: 'jobs.engine_error' }, 'job engine');
  await jobs.start({ workers: true });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { parser: parseFormBody });

  installErrorHandler(app, config.defaultLanguage);

  // Routes as registered (see csrf.ts). Application logos are <img> sources (no headers
  // possible); they change nothing and need no session. The file manager's downloads are links the
  // browser saves as it receives them (a fetch would hold a large file in memory first); they
  // change nothing either, and still need the session.
  const exemptGets = new Set(
    [
      'config/get/',
      'captcha/challenge/',
      'health/',
      'openapi.json',
      'hostingapplication/:appId/logo/',
      'service/:id/files/download/',
      'service/:id/files/zip/',
      // the provider's one-time login link, opened by a browser (its token authorises it)
      'user/login/link/',
    ].map((route) => `${basePath}${route}`),
  );
  const socketPath = `${basePath}realtime/`;
  const csrfRules = { exemptGets, socketRoute: socketPath, allowedOrigins: new Set(config.allowedOrigins) };
  // One hook for the headers and the CSRF rule, in callback style: it runs on every call, and
  // each hook (an async one more so) has a cost of its own. Both go by the matched route, so that
  // no spelling of the path (`/%70247/…`) reaches an API route without them.
  app.addHook('onRequest', (request, reply, done) => {
    const route = matchedRoute(request);
    const api = route.startsWith(basePath);
    reply.headers(api ? apiHeaders : documentHeaders);
    if (!api || csrfAllows(request, route, csrfRules)) {
      done();
      return;
    }
    const origin = request.headers.origin;
    request.log.warn({ event: 'csrf.refused', origin: origin === undefined ? null : forLog(origin) }, 'csrf refused');
    done(new CsrfError());
  });

  const services = composePanel({
    config,
    db,
    events,
    secretKey: deps.secretKey,
    now,
    jobs,
    dnsDriver: deps.dnsDriver ?? createDnsDriver(config),
    log: app.log,
    ...(deps.mailer ? { mailer: deps.mailer } : {}),
  });
  app.addHook('onClose', () => services.close());
  const { brands, sessions, permissions, captcha, contact, activity, dns, apiTokens } = services;
  // A session cookie or an API token, on every session-bound route.
  const caller = new RequestAuthenticator(sessions, apiTokens, basePath);

  const catalogue: DescribedRoute[] = [];
  registerOpenApiRoute(app, basePath, catalogue);
  const api = createApiRouter(app, {
    basePath,
    defaultLanguage: config.defaultLanguage,
    auth: caller,
    checkAnswers: deps.checkAnswers ?? false,
    catalogue,
    activity,
    provider: {
      authenticate: (authorization) => services.provider.tokens.authenticate(authorization),
      idempotency: services.provider.idempotency,
    },
    staff: services.console.staff,
  });
  registerProviderRoutes(api, services.provider.provisioning, basePath);
  registerConsoleRoutes(api, {
    staff: services.console.staff,
    console: services.console.services,
    oversight: services.console.oversight,
    brands: services.console.brands,
    provisioning: services.provider.provisioning,
  });
  registerLoginLinkRoute(app, basePath, config.defaultLanguage, services.auth, services.provider.signon);
  registerActivityRoutes(api, activity, { app, basePath, auth: caller, defaultLanguage: config.defaultLanguage });
  registerConfigRoutes(api, brands, { basePath, captcha, captchaSiteKey: config.captcha.siteKey });
  registerCaptchaRoutes(app, basePath, captcha instanceof AltchaVerifier ? captcha : undefined);
  registerHealthRoute(app, basePath, services.health);
  registerUserRoutes(api, services.auth);
  registerTwoFactorRoutes(api, services.auth, services.twoFactor);
  registerPasskeyRoutes(api, services.passkeys);
  registerUserSessionsRoutes(api, services.userSessions);
  registerApiTokenRoutes(api, apiTokens);
  registerAccountUsersRoutes(api, services.accountUsers);
  registerPermissionRoutes(api, permissions);
  registerLegalRoutes(api, brands, services.legal);
  registerContactRoutes(api, { brands, contact, captcha });
  registerDnsRoutes(api, dns);
  registerDomainRoutes(api, services.domains, services.contacts);
  registerDnssecRoutes(api, services.domains.zoneDnssec, services.domains.cdsScan);
  registerMailRoutes(api, services.mail);
  registerMailSpamRoutes(api, services.mailSpam);
  registerMailAuthRoutes(api, services.mailAuth);
  await registerMailClientSetupRoutes(app, { basePath, auth: caller, setup: services.mailClientSetup });
  registerFtpRoutes(api, services.ftp);
  registerDatabasesRoutes(api, services.databases, { app, basePath, auth: caller });
  registerFilesRoutes(api, services.files, { app, basePath, auth: caller, activity });
  registerBackupRoutes(api, services.backupJobs);
  registerCronRoutes(api, services.cron);
  registerStatsRoutes(api, services.stats);
  registerHostingRoutes(api, services.hosting, { app });
  registerInstallerRoutes(api, services.installer, { app, basePath });
  registerDnsExportRoute(app, { basePath, auth: caller, dns });
  await bindPanelWork(services);
  app.addHook('onReady', () => panelReady(services));
  // Only the realtime route needs the WebSocket plugin: in a scope of its own, the plugin's
  // hooks and the wrapper it puts around every route handler stay off all the other calls.
  await app.register(async (scope) => {
    await scope.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
    // The CSRF rule refuses a cross-origin upgrade before the plugin's own hooks run, so the
    // plugin does not end that socket after the 403 as it does for the upgrades it refuses.
    scope.addHook('onResponse', (request, _reply, done) => {
      if (!request.ws && request.headers.upgrade) request.raw.socket.destroy();
      done();
    });
    registerRealtimeRoutes(scope, { path: socketPath, sessions, events });
  });
  registerDefaultLogos(app);
  const rendererPath = config.serverRender && config.webDist ? rendererFile(config.webDist) : null;
  const pageRenderer = rendererPath ? new PageRenderer(rendererPath, app.log) : null;
  if (pageRenderer) app.addHook('onClose', () => pageRenderer.close());
  await registerWebApp(app, {
    dist: config.webDist ?? '',
    basePath: config.basePath,
    defaultLanguage: config.defaultLanguage,
    captcha: config.captcha.provider,
    brandOf: async (host, referer) => {
      const brand = await brands.resolve(host, referer);
      return { company: brand.company, logo: brand.logo };
    },
    bootData: (request, page) => bootDataOf(app, request, { basePath: config.basePath, ...page }),
    drawPage: pageRenderer
      ? async (request, { boot, ...page }) => {
          const hints = viewHintsOf(clientCallOf(request).cookie(VIEW_COOKIE));
          const call = pageCaller(app, request, { basePath: config.basePath, ...page });
          return drawSignedInPage(pageRenderer, call, { url: request.url, language: page.language, boot, hints });
        }
      : undefined,
    hasSessionCookie: (request) => {
      const call = clientCallOf(request);
      return Boolean(call.cookie(sessions.cookieName(call)));
    },
  });

  return { app, services };
}

function embeddedJobs(db: Db): JobEngine {
  if (isPostgresDb(db)) throw new Error('on PostgreSQL the app needs its job engine (pg-boss) from the caller');
  return new PlacedJobs(new EmbeddedEngine(db), db);
}
