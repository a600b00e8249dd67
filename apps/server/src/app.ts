import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { AppConfig } from './config.ts';
import { SecretBox } from './crypto/secret-box.ts';
import type { Db } from './db/database.ts';
import { isPostgresDb } from './db/database.ts';
import { createDkimDriver } from './drivers/dkim/create-dkim-driver.ts';
import { createDnsDriver } from './drivers/dns/create-dns-driver.ts';
import type { DnsDriver } from './drivers/dns/dns.driver.ts';
import { ConfinedWorkers } from './drivers/files/confined/confined-workers.ts';
import { CsrfError } from './errors.ts';
import { createApiRouter, type DescribedRoute } from './http/api-route.ts';
import { limitConnections, timeoutOptions } from './http/connection-limits.ts';
import { csrfAllows, matchedRoute } from './http/csrf.ts';
import { registerDefaultLogos } from './http/default-logos.ts';
import { installErrorHandler, routerErrorHandler } from './http/error-handler.ts';
import { parseFormBody } from './http/form-body.ts';
import { lazyChildLoggerFactory } from './http/lazy-child-logger.ts';
import { registerOpenApiRoute } from './http/openapi.ts';
import { forLog } from './http/request-context.ts';
import { apiSecurityHeaders, computeSecurityHeaders, PANEL_HELMET_OPTIONS } from './http/security-headers.ts';
import { registerWebApp } from './http/web-app.ts';
import { EmbeddedEngine } from './jobs/embedded-engine.ts';
import type { JobEngine } from './jobs/job-engine.ts';
import { registerActivityRoutes } from './modules/activity/activity.routes.ts';
import { ActivityService } from './modules/activity/activity.service.ts';
import { registerApiTokenRoutes } from './modules/auth/api-token.routes.ts';
import { ApiTokenService } from './modules/auth/api-token.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { registerPasskeyRoutes } from './modules/auth/passkey.routes.ts';
import { PasskeyService } from './modules/auth/passkey.service.ts';
import { RecoveryCodes } from './modules/auth/recovery-codes.ts';
import { RequestAuthenticator } from './modules/auth/request-authenticator.ts';
import { SecurityMail } from './modules/auth/security-mail.ts';
import { SessionService } from './modules/auth/session.service.ts';
import { registerTwoFactorRoutes } from './modules/auth/two-factor.routes.ts';
import { TwoFactorService } from './modules/auth/two-factor.service.ts';
import { registerUserRoutes } from './modules/auth/user.routes.ts';
import { registerUserSessionsRoutes } from './modules/auth/user-sessions.routes.ts';
import { UserSessionsService } from './modules/auth/user-sessions.service.ts';
import { BackupJobsService } from './modules/backups/backup-jobs.service.ts';
import { workBackupRuns } from './modules/backups/backup-jobs.ts';
import { registerBackupRoutes } from './modules/backups/backups.routes.ts';
import { createBackupService } from './modules/backups/create-backup-service.ts';
import { BrandService } from './modules/brand/brand.service.ts';
import { registerConfigRoutes } from './modules/brand/config.routes.ts';
import { AltchaVerifier } from './modules/captcha/altcha.verifier.ts';
import { registerCaptchaRoutes } from './modules/captcha/captcha.routes.ts';
import { type CaptchaVerifier, NoCaptcha } from './modules/captcha/captcha.verifier.ts';
import { SiteVerifyVerifier } from './modules/captcha/siteverify.verifier.ts';
import { registerContactRoutes } from './modules/contact/contact.routes.ts';
import { ContactService } from './modules/contact/contact.service.ts';
import { createSmtpMailer, type Mailer } from './modules/contact/mailer.ts';
import { createDatabasesNode, createDatabasesService } from './modules/databases/create-databases-service.ts';
import { registerDatabasesRoutes } from './modules/databases/databases.routes.ts';
import { registerDnsExportRoute, registerDnsRoutes } from './modules/dns/dns.routes.ts';
import { createDnsService, type DnsService } from './modules/dns/dns.service.ts';
import { createDomainServices } from './modules/domain/create-domain-services.ts';
import { registerDnssecRoutes } from './modules/domain/dnssec.routes.ts';
import { registerDomainRoutes } from './modules/domain/domain.routes.ts';
import { workZoneUnsigning } from './modules/domain/zone-dnssec.jobs.ts';
import { createFilesService } from './modules/files/create-files-service.ts';
import { registerFilesRoutes } from './modules/files/files.routes.ts';
import { createFtpNode, createFtpService } from './modules/ftp/create-ftp-service.ts';
import { registerFtpRoutes } from './modules/ftp/ftp.routes.ts';
import { registerHealthRoute } from './modules/health/health.routes.ts';
import { HealthService } from './modules/health/health.service.ts';
import { createHostingService } from './modules/hosting/create-hosting-service.ts';
import { registerHostingRoutes } from './modules/hosting/hosting.routes.ts';
import { createInstallerService } from './modules/installer/create-installer-service.ts';
import { workInstalls } from './modules/installer/installer.jobs.ts';
import { registerInstallerRoutes } from './modules/installer/installer.routes.ts';
import { registerLegalRoutes } from './modules/legal/legal.routes.ts';
import { LegalService } from './modules/legal/legal.service.ts';
import { createMailAuthService } from './modules/mail/create-mail-auth-service.ts';
import { createMailNode, createMailService } from './modules/mail/create-mail-service.ts';
import { registerMailRoutes } from './modules/mail/mail.routes.ts';
import { registerMailAuthRoutes } from './modules/mail/mail-auth.routes.ts';
import { createMailClientSetupService } from './modules/mail-client-setup/create-mail-client-setup-service.ts';
import { registerMailClientSetupRoutes } from './modules/mail-client-setup/mail-client-setup.routes.ts';
import { startMailSendingPolicy } from './modules/mail-sending/start-mail-sending-policy.ts';
import { registerPermissionRoutes } from './modules/permission/permission.routes.ts';
import { PermissionService } from './modules/permission/permission.service.ts';
import { RateLimiter } from './modules/rate-limit/rate-limiter.ts';
import type { EventBus } from './modules/realtime/event-bus.ts';
import { registerRealtimeRoutes } from './modules/realtime/realtime.routes.ts';
import { workEvents } from './modules/realtime/work-events.ts';
import { bindNodeWork } from './node-agent.ts';
import { scheduleRounds } from './scheduled-rounds.ts';

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
  services: {
    sessions: SessionService;
    permissions: PermissionService;
    contact: ContactService;
    dns: DnsService;
    apiTokens: ApiTokenService;
    activity: ActivityService;
    /** The work log this app's workers take jobs from. */
    jobs: JobEngine;
  };
}

function createCaptcha(config: AppConfig, db: Db, secretKey: Buffer, now: () => number): CaptchaVerifier {
  const { provider, secret, verifyUrl, altchaMaxNumber } = config.captcha;
  if (provider === 'none') return new NoCaptcha();
  if (provider === 'altcha') return new AltchaVerifier(db, secretKey, altchaMaxNumber, now);
  return new SiteVerifyVerifier(provider, secret, verifyUrl);
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
  app.addHook('onClose', () => jobs.stop());
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

  const limiter = new RateLimiter(db, now);
  const window = (minutes: number) => Math.round(minutes * 60);
  const brands = new BrandService(db);
  const sessions = new SessionService(
    db,
    {
      idleSeconds: window(config.session.idleMinutes),
      absoluteSeconds: window(config.session.absoluteHours * 60),
      cacheSeconds: config.session.cacheSeconds,
    },
    events,
    now,
  );
  const permissions = new PermissionService(db, { events, seconds: config.session.cacheSeconds, now });
  const captcha = createCaptcha(config, db, deps.secretKey, now);
  const mailer = deps.mailer ?? createSmtpMailer(config.smtp.url);
  const contact = new ContactService(
    db,
    mailer,
    config.smtp.from,
    limiter,
    {
      bucket: 'form',
      max: config.limits.formsPerIp,
      windowSeconds: window(config.limits.formsWindowMinutes),
    },
    now,
  );
  app.addHook('onClose', async () => mailer?.close());
  const loginLimits = {
    perAccount: {
      bucket: 'login-account',
      max: config.limits.loginPerAccount,
      windowSeconds: window(config.limits.loginWindowMinutes),
    },
    perIp: {
      bucket: 'login-ip',
      max: config.limits.loginPerIp,
      windowSeconds: window(config.limits.loginWindowMinutes),
    },
  };
  const securityMail = new SecurityMail(db, brands, contact, now);
  const twoFactor = new TwoFactorService(
    db,
    new SecretBox(deps.secretKey, 'totp-secret'),
    new RecoveryCodes(deps.secretKey),
    limiter,
    loginLimits,
    brands,
    securityMail,
    now,
  );
  const auth = new AuthService(db, sessions, permissions, captcha, limiter, loginLimits, twoFactor, now);
  const passkeys = new PasskeyService(
    db,
    auth,
    twoFactor,
    brands,
    captcha,
    limiter,
    loginLimits,
    config.passkeyOrigins,
    now,
  );
  const apiTokens = new ApiTokenService(db, permissions, passkeys, securityMail, now);
  // A session cookie or an API token, on every session-bound route.
  const caller = new RequestAuthenticator(sessions, apiTokens, basePath);

  const activity = new ActivityService(db, permissions, {
    retentionDays: config.activity.retentionDays,
    now,
    log: app.log,
  });
  // Postfix's policy service for the mailboxes' sending limit (off unless PANEL_MAIL_POLICY_LISTEN is set).
  const sendingLimits = startMailSendingPolicy(app, { db, config, activity, now });

  const catalogue: DescribedRoute[] = [];
  registerOpenApiRoute(app, basePath, catalogue);
  const api = createApiRouter(app, {
    basePath,
    defaultLanguage: config.defaultLanguage,
    auth: caller,
    checkAnswers: deps.checkAnswers ?? false,
    catalogue,
    activity,
  });
  registerActivityRoutes(api, activity, { app, basePath, auth: caller, defaultLanguage: config.defaultLanguage });
  registerConfigRoutes(api, brands, { basePath, captcha, captchaSiteKey: config.captcha.siteKey });
  registerCaptchaRoutes(app, basePath, captcha instanceof AltchaVerifier ? captcha : undefined);
  registerHealthRoute(app, basePath, new HealthService(db, events, jobs));
  registerUserRoutes(api, auth);
  registerTwoFactorRoutes(api, auth, twoFactor);
  registerPasskeyRoutes(api, passkeys);
  registerUserSessionsRoutes(api, new UserSessionsService(sessions));
  registerApiTokenRoutes(api, apiTokens);
  registerPermissionRoutes(api, permissions);
  registerLegalRoutes(api, brands, new LegalService(db));
  registerContactRoutes(api, { brands, contact, captcha });
  const dnsDriver = deps.dnsDriver ?? createDnsDriver(config);
  // One permission service (cached, told of changes by the event bus) and one DNS service for
  // every area of the process.
  // Pages follow their objects' changes through the realtime channel, not by polling.
  const landed = workEvents(permissions, events);
  const dns = createDnsService(db, config, dnsDriver, now, jobs, permissions, landed);
  registerDnsRoutes(api, dns);
  // Zones left with changes to publish (an instance stopped mid-change, the demo seed, the CLI
  // while no panel ran) get their job as the instance starts, not at the round's next minute.
  app.addHook('onReady', async () => {
    await dns
      .republish()
      .catch((error) => app.log.error({ err: error, event: 'dns.republish_failed' }, 'dns republish'));
  });
  const domains = createDomainServices(db, config, dnsDriver, deps.secretKey, now, {
    jobs,
    permissions,
    dns,
    events: {
      unsignFailed: (error, job) =>
        app.log.error({ err: error, event: 'dnssec.unsign_failed', job }, 'dnssec unsigning failed'),
      cdsChanged: (change) => app.log.info({ event: 'dnssec.cds_applied', ...change }, 'DS updated from CDS'),
    },
  });
  registerDomainRoutes(api, domains.domains, domains.contacts);
  registerDnssecRoutes(api, domains.domains.zoneDnssec, domains.domains.cdsScan);
  await workZoneUnsigning(jobs, domains.domains.zoneDnssec);
  const mailNode = createMailNode(db, config, now, { landed });
  const mail = createMailService(db, config, mailNode, brands, now, {
    permissions,
    delivery: { jobs, waitMs: config.web.applyWaitSeconds * 1000 },
  });
  registerMailRoutes(api, mail);
  const mailAuth = createMailAuthService(
    db,
    config,
    {
      zone: dns,
      zonesOnlyHere: !dnsDriver.publishesZones,
      signer: createDkimDriver(config),
      secretKey: deps.secretKey,
      permissions,
    },
    now,
  );
  registerMailAuthRoutes(api, mailAuth);
  await registerMailClientSetupRoutes(app, {
    basePath,
    auth: caller,
    setup: createMailClientSetupService(db, config, brands, permissions),
  });
  const ftpNode = createFtpNode(db, config, now, landed);
  const ftp = createFtpService(db, config, brands, deps.secretKey, now, {
    permissions,
    delivery: { jobs, waitMs: config.web.applyWaitSeconds * 1000 },
    node: ftpNode,
  });
  registerFtpRoutes(api, ftp);
  const databasesNode = createDatabasesNode(db, config, deps.secretKey, now, landed);
  const databases = createDatabasesService(db, config, brands, deps.secretKey, now, {
    permissions,
    delivery: { jobs, waitMs: config.web.applyWaitSeconds * 1000 },
    node: databasesNode,
  });
  registerDatabasesRoutes(api, databases, { app, basePath, auth: caller });
  // Every operation in a customer's home runs in a worker process of its own, as that customer.
  const fileWorkers = new ConfinedWorkers();
  app.addHook('onClose', () => fileWorkers.close());
  registerFilesRoutes(api, createFilesService(db, config, fileWorkers, permissions), {
    app,
    basePath,
    auth: caller,
    activity,
  });
  const backups = createBackupService(db, config, dnsDriver, deps.secretKey, now, {
    databases,
    dns,
    workers: fileWorkers,
  });
  const backupJobs = new BackupJobsService(
    db,
    permissions,
    backups.backups,
    { quotaBytes: config.backups.quotaMb * 1024 * 1024 },
    now,
    (error, job) => app.log.error({ err: error, event: 'backup.job_failed', job }, 'backup job failed'),
    jobs,
  );
  registerBackupRoutes(api, backupJobs);
  await workBackupRuns(jobs, backupJobs);
  const hosting = createHostingService(db, config, brands, deps.secretKey, now, undefined, {
    dnsDriver,
    jobs,
    permissions,
    webDelivery: { jobs, waitMs: config.web.applyWaitSeconds * 1000 },
    landed,
    log: (error, site) => app.log.error({ err: error, event: 'acme.order_failed', site }, 'certificate order failed'),
  });
  registerHostingRoutes(api, hosting, { app });
  // This process is also its machine's node agent unless one runs on its own (PANEL_AGENT).
  if (config.agent.mode === 'embedded') {
    await bindNodeWork(jobs, {
      web: hosting.webApplier,
      ftp: ftpNode.worker,
      mail: mailNode.worker,
      databases: databasesNode.worker,
      dns: { run: (zone) => dns.publishZone(zone) },
      certificates: {
        site: (serviceId, siteId) => hosting.certificates.order(serviceId, siteId),
        mail: (name) => hosting.certificates.orderMail(name),
      },
    });
    // ProFTPD's copy of the logins (on SQLite) as the database has them, before the first login.
    app.addHook('onReady', () => ftpNode.worker.publishAll());
  }
  app.addHook('onReady', async () => {
    await hosting.changes
      .reapply()
      .catch((error) => app.log.error({ err: error, event: 'web.reapply_failed' }, 'web reapply'));
    await ftp.reapply().catch((error) => app.log.error({ err: error, event: 'ftp.reapply_failed' }, 'ftp reapply'));
    await mail.reapply().catch((error) => app.log.error({ err: error, event: 'mail.reapply_failed' }, 'mail reapply'));
    await databases
      .reapply()
      .catch((error) => app.log.error({ err: error, event: 'databases.reapply_failed' }, 'databases reapply'));
  });
  const installer = createInstallerService(
    db,
    config,
    { hosting, databases, permissions },
    now,
    fileWorkers,
    app.log,
    jobs,
    deps.secretKey,
  );
  registerInstallerRoutes(api, installer, { app, basePath });
  await workInstalls(jobs, installer);
  registerDnsExportRoute(app, { basePath, auth: caller, dns });
  await scheduleRounds(
    jobs,
    config,
    {
      sessions,
      apiTokens,
      activity,
      sendingLimits,
      mailAuth,
      certificates: hosting.certificates,
      cdsScan: domains.domains.cdsScan,
      backups: backups.backups,
      dns,
      serviceChanges: { web: hosting.changes, ftp, mail, databases },
    },
    app.log,
    now,
  );
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
  await registerWebApp(app, {
    dist: config.webDist ?? '',
    basePath: config.basePath,
    defaultLanguage: config.defaultLanguage,
    captcha: config.captcha.provider,
    brandOf: async (host, referer) => {
      const brand = await brands.resolve(host, referer);
      return { company: brand.company, logo: brand.logo };
    },
    hasSessionCookie: (request) => Boolean(request.cookies[sessions.cookieName(request)]),
  });

  return { app, services: { sessions, permissions, contact, dns, apiTokens, activity, jobs } };
}

function embeddedJobs(db: Db): JobEngine {
  if (isPostgresDb(db)) throw new Error('on PostgreSQL the app needs its job engine (pg-boss) from the caller');
  return new EmbeddedEngine(db);
}
