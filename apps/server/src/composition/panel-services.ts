import type { AppConfig } from '../config.ts';
import { SecretBox } from '../crypto/secret-box.ts';
import type { Db } from '../db/database.ts';
import type { JobEngine } from '../jobs/job-engine.ts';
import type { ServiceArea } from '../jobs/service-change-log.ts';
import { ActivityService } from '../modules/activity/activity.service.ts';
import { AdminService } from '../modules/admin/admin.service.ts';
import { ApiTokenService } from '../modules/auth/api-token.service.ts';
import { AuthService } from '../modules/auth/auth.service.ts';
import { PasskeyService } from '../modules/auth/passkey.service.ts';
import { RecoveryCodes } from '../modules/auth/recovery-codes.ts';
import { SecurityMail } from '../modules/auth/security-mail.ts';
import { SessionService } from '../modules/auth/session.service.ts';
import { TwoFactorService } from '../modules/auth/two-factor.service.ts';
import { UserSessionsService } from '../modules/auth/user-sessions.service.ts';
import { BackupJobsService } from '../modules/backups/backup-jobs.service.ts';
import type { BrandService } from '../modules/brand/brand.service.ts';
import { AltchaVerifier } from '../modules/captcha/altcha.verifier.ts';
import { type CaptchaVerifier, NoCaptcha } from '../modules/captcha/captcha.verifier.ts';
import { SiteVerifyVerifier } from '../modules/captcha/siteverify.verifier.ts';
import { ConsoleServices } from '../modules/console/console.service.ts';
import { ConsoleBrands } from '../modules/console/console-brands.service.ts';
import { ConsoleOversight } from '../modules/console/console-oversight.service.ts';
import { StaffAuthService } from '../modules/console/staff-auth.service.ts';
import { ContactService } from '../modules/contact/contact.service.ts';
import { createSmtpMailer, type Mailer } from '../modules/contact/mailer.ts';
import { CronService } from '../modules/cron/cron.service.ts';
import { cronOutputMail } from '../modules/cron/cron-output-mail.ts';
import { CronScheduler } from '../modules/cron/cron-scheduler.ts';
import { createFilesService } from '../modules/files/create-files-service.ts';
import type { FilesService } from '../modules/files/files.service.ts';
import { createFtpService } from '../modules/ftp/create-ftp-service.ts';
import { HealthService } from '../modules/health/health.service.ts';
import { LegalService } from '../modules/legal/legal.service.ts';
import { createMailAuthService } from '../modules/mail/create-mail-auth-service.ts';
import { createMailService, createMailSpamService } from '../modules/mail/create-mail-service.ts';
import { dkimKeysThroughLog } from '../modules/mail/dkim-signing.ts';
import type { MailService } from '../modules/mail/mail.service.ts';
import type { MailAuthService } from '../modules/mail/mail-auth.service.ts';
import type { MailSpamService } from '../modules/mail/mail-spam.service.ts';
import { createMailClientSetupService } from '../modules/mail-client-setup/create-mail-client-setup-service.ts';
import type { MailClientSetupService } from '../modules/mail-client-setup/mail-client-setup.service.ts';
import { NodesService } from '../modules/nodes/nodes.service.ts';
import { PermissionService } from '../modules/permission/permission.service.ts';
import { createServiceTerminations } from '../modules/provider/create-service-terminations.ts';
import { ProviderIdempotency } from '../modules/provider/provider-idempotency.ts';
import { ProviderTokensService } from '../modules/provider/provider-tokens.service.ts';
import { ProvisioningService } from '../modules/provider/provisioning.service.ts';
import { RateLimiter } from '../modules/rate-limit/rate-limiter.ts';
import { workEvents } from '../modules/realtime/work-events.ts';
import { SignonTokens } from '../modules/signon/signon-tokens.ts';
import { StatsScheduler, StatsService } from '../modules/stats/stats.service.ts';
import { AccountUsersService } from '../modules/users/account-users.service.ts';
import type { AccountUsersParts } from '../modules/users/account-users-parts.ts';
import { UserInvitations } from '../modules/users/invitations.ts';
import { UserPermissions } from '../modules/users/user-permissions.ts';
import { NodeChannel } from '../node-channel/channel-client.ts';
import { nodeChannelToken } from '../node-channel/channel-token.ts';
import { NodeChannels } from '../node-channel/node-channels.ts';
import { bindNodeWork, nodeWorkers } from '../node-work.ts';
import { scheduleRounds } from '../scheduled-rounds.ts';
import { type AreaServices, composeAreas } from './area-services.ts';
import { composeNodeParts, type NodeParts } from './node-parts.ts';
import type { PanelBase } from './panel-base.ts';

/**
 * What the panel is built from: the base without what the composition makes one of itself. The
 * work log comes started (the composition binds workers and schedules to it).
 */
export interface PanelDeps extends Omit<PanelBase, 'permissions' | 'landed' | 'delivery'> {
  mailer?: Mailer;
}

/**
 * Every service of the panel, wired once: the one composition root. No Fastify here: the app
 * (app.ts) registers routes on these services, a test or a command can build the same with other
 * parts (a mailer, a DNS driver, a clock), and the node agent builds the node's share of it
 * (node-parts.ts, area-services.ts).
 */
export interface PanelServices extends AreaServices {
  /** What the services were built from (the configuration, the clock, the logger). */
  base: PanelBase;
  node: NodeParts;
  sessions: SessionService;
  permissions: PermissionService;
  captcha: CaptchaVerifier;
  contact: ContactService;
  twoFactor: TwoFactorService;
  auth: AuthService;
  passkeys: PasskeyService;
  apiTokens: ApiTokenService;
  userSessions: UserSessionsService;
  /** The account's own users, managed by those who hold the right. */
  accountUsers: AccountUsersParts;
  activity: ActivityService;
  health: HealthService;
  legal: LegalService;
  mail: MailService;
  /** Mail services' spam filtering: each mailbox's, and the service's allow and block lists. */
  mailSpam: MailSpamService;
  mailAuth: MailAuthService;
  mailClientSetup: MailClientSetupService;
  ftp: ReturnType<typeof createFtpService>;
  files: FilesService;
  backupJobs: BackupJobsService;
  /** A service's scheduled tasks (the API), and the round that sends them to run and mails their output. */
  cron: CronService;
  cronScheduler: CronScheduler;
  /** A service's site statistics (the API), and the round that has every service's refreshed. */
  stats: StatsService;
  statsScheduler: StatsScheduler;
  jobs: JobEngine;
  provider: ProviderParts;
  /** The provider's console: its staff's sign-in and sessions, and what they do. */
  console: { staff: StaffAuthService; services: ConsoleServices; oversight: ConsoleOversight; brands: ConsoleBrands };
}

/** The provisioning API's parts: its tokens, its calls' idempotency keys and what the calls do. */
export interface ProviderParts {
  tokens: ProviderTokensService;
  idempotency: ProviderIdempotency;
  provisioning: ProvisioningService;
  signon: SignonTokens;
}

/**
 * The provisioning API over the panel's services: a new service gets its DNS zone at once (as
 * `panel resource add` does) and its first web change, which makes its system user and home on
 * its web server when applied there.
 */
function composeProvider(
  deps: PanelDeps,
  parts: {
    areas: AreaServices;
    sessions: SessionService;
    mail: Pick<MailService, 'loginsChanged'>;
    ftp: Pick<ReturnType<typeof createFtpService>, 'loginsChanged'>;
  },
): ProviderParts {
  const { config, db, events, now } = deps;
  const { areas, sessions } = parts;
  const admin = new AdminService(db, events, now, {
    serviceReady: (resource) => areas.dns.ensureZoneOf(resource.id, resource.reference, resource.referencePunycode),
  });
  const signon = new SignonTokens(db, now);
  return {
    tokens: new ProviderTokensService(db, now),
    idempotency: new ProviderIdempotency(db, now),
    signon,
    provisioning: new ProvisioningService({
      admin,
      plans: areas.plans,
      sessions,
      signon,
      applyWeb: (service) => areas.hosting.changes.change(service, async () => undefined),
      loginsChanged: async (service) => {
        await parts.mail.loginsChanged(service);
        await parts.ftp.loginsChanged(service);
      },
      sizes: (service) => areas.hosting.overview.sizes(service),
      terminations: createServiceTerminations(deps, async () => areas.backups),
      terminateWaitMs: config.web.applyWaitSeconds * 1000,
    }),
  };
}

/** The account users' management over the auth services that end a user's access. */
function composeAccountUsers(
  deps: PanelDeps,
  parts: {
    permissions: PermissionService;
    activity: ActivityService;
    sessions: SessionService;
    apiTokens: ApiTokenService;
    twoFactor: TwoFactorService;
    securityMail: SecurityMail;
    brands: BrandService;
    contact: ContactService;
  },
): AccountUsersParts {
  const { config, db, events, now } = deps;
  const invitations = new UserInvitations(db, parts.brands, parts.contact, {
    hours: config.users.invitationHours,
    now,
  });
  const users = new AccountUsersService({
    db,
    events,
    now,
    permissions: parts.permissions,
    activity: parts.activity,
    invitations,
    mail: parts.securityMail,
    access: {
      endSessions: (userId) => parts.sessions.endAllOfUser(userId),
      endTokens: (userId) => parts.apiTokens.endAllOfUser(userId),
      resetSecondFactor: (userId) => parts.twoFactor.resetFactorsOf(userId),
    },
  });
  return { users, invitations, permissions: new UserPermissions(users, parts.permissions, events) };
}

function createCaptcha(config: AppConfig, db: Db, secretKey: Buffer, now: () => number): CaptchaVerifier {
  const { provider, secret, verifyUrl, altchaMaxNumber } = config.captcha;
  if (provider === 'none') return new NoCaptcha();
  if (provider === 'altcha') return new AltchaVerifier(db, secretKey, altchaMaxNumber, now);
  return new SiteVerifyVerifier(provider, secret, verifyUrl);
}

const minutes = (value: number) => Math.round(value * 60);

export function composePanel(deps: PanelDeps): PanelServices {
  const { config, db, events, secretKey, now, jobs, log } = deps;
  // One permission service (cached, told of changes by the event bus) for every area of the process.
  const permissions = new PermissionService(db, { events, seconds: config.session.cacheSeconds, now });
  const base: PanelBase = {
    config,
    db,
    events,
    secretKey,
    now,
    jobs,
    dnsDriver: deps.dnsDriver,
    log,
    permissions,
    // Pages follow their objects' changes through the realtime channel, not by polling.
    landed: workEvents(permissions, events),
    delivery: { jobs, waitMs: config.web.applyWaitSeconds * 1000 },
  };
  const activity = new ActivityService(db, permissions, { retentionDays: config.activity.retentionDays, now, log });
  // What is on the provider's named servers is asked of their agents; apart from the unnamed
  // machine (PANEL_AGENT=separate), so is what is on it.
  const token = nodeChannelToken(secretKey);
  const channels = new NodeChannels(db, token);
  const unnamed = config.agent.mode === 'separate' ? new NodeChannel(new URL(config.agent.url), token) : undefined;
  const node = composeNodeParts(base, { activity, channels, ...(unnamed ? { unnamed } : {}) });
  const areas = composeAreas(base, node);
  const { brands, dns } = areas;

  const limiter = new RateLimiter(db, now);
  const sessions = new SessionService(
    db,
    {
      idleSeconds: minutes(config.session.idleMinutes),
      absoluteSeconds: minutes(config.session.absoluteHours * 60),
      cacheSeconds: config.session.cacheSeconds,
    },
    events,
    now,
  );
  const captcha = createCaptcha(config, db, secretKey, now);
  const mailer = deps.mailer ?? createSmtpMailer(config.smtp.url);
  const contact = new ContactService(
    db,
    mailer,
    config.smtp.from,
    limiter,
    { bucket: 'form', max: config.limits.formsPerIp, windowSeconds: minutes(config.limits.formsWindowMinutes) },
    now,
  );
  const loginWindow = minutes(config.limits.loginWindowMinutes);
  const loginLimits = {
    perAccount: { bucket: 'login-account', max: config.limits.loginPerAccount, windowSeconds: loginWindow },
    perIp: { bucket: 'login-ip', max: config.limits.loginPerIp, windowSeconds: loginWindow },
  };
  const securityMail = new SecurityMail(db, brands, contact, now);
  const twoFactor = new TwoFactorService(
    db,
    new SecretBox(secretKey, 'totp-secret'),
    new RecoveryCodes(secretKey),
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
  const mailAuth = createMailAuthService(
    db,
    config,
    {
      zone: dns,
      zonesOnlyHere: !deps.dnsDriver.publishesZones,
      signing: dkimKeysThroughLog(db, jobs, config.web.applyWaitSeconds * 1000),
      secretKey,
      permissions,
    },
    now,
  );
  const ftp = createFtpService(db, config, brands, secretKey, now, {
    permissions,
    delivery: base.delivery,
    node: node.ftp,
  });
  const mail = createMailService(db, config, node.mail, brands, now, { permissions, delivery: base.delivery });
  const provider = composeProvider(deps, { areas, sessions, mail, ftp });
  const consoleAdmin = new AdminService(db, events, now);
  const legal = new LegalService(db);
  const services: PanelServices = {
    ...areas,
    provider,
    console: {
      staff: new StaffAuthService(
        db,
        new SecretBox(secretKey, 'staff-totp-secret'),
        {
          idleSeconds: minutes(config.session.idleMinutes),
          absoluteSeconds: minutes(config.session.absoluteHours * 60),
        },
        limiter,
        loginLimits,
        'Panel247 console',
        now,
      ),
      services: new ConsoleServices(db, consoleAdmin, areas.plans, (service) => areas.hosting.overview.sizes(service)),
      oversight: new ConsoleOversight(db, jobs, new NodesService(db, now)),
      brands: new ConsoleBrands(consoleAdmin, brands, legal),
    },
    base,
    node,
    sessions,
    permissions,
    captcha,
    contact,
    twoFactor,
    auth,
    passkeys,
    apiTokens,
    userSessions: new UserSessionsService(sessions),
    accountUsers: composeAccountUsers(deps, {
      permissions,
      activity,
      sessions,
      apiTokens,
      twoFactor,
      securityMail,
      brands,
      contact,
    }),
    activity,
    health: new HealthService(db, events, jobs, new NodesService(db, now)),
    legal,
    mail,
    mailSpam: createMailSpamService(db, node.mail, now, { permissions, delivery: base.delivery }),
    mailAuth,
    mailClientSetup: createMailClientSetupService(db, config, brands, permissions),
    ftp,
    files: createFilesService(db, config, areas.fileWorkers, permissions),
    backupJobs: new BackupJobsService(db, permissions, areas.backups, now, jobs),
    cron: new CronService(db, permissions, jobs, config.cron, now),
    cronScheduler: new CronScheduler(db, jobs, cronOutputMail(brands, contact, log), config.cron, now),
    stats: new StatsService(db, permissions, jobs, config.stats),
    statsScheduler: new StatsScheduler(db, jobs),
    jobs,
    async close() {
      await jobs.stop();
      mailer?.close();
      await areas.close();
      await node.close();
    },
  };
  return services;
}

/** Each area's changes on their way to the services' servers. */
function serviceChangesOf(services: PanelServices): Record<ServiceArea, { reapply(): Promise<number> }> {
  return { web: services.hosting.changes, ftp: services.ftp, mail: services.mail, databases: services.databases };
}

/**
 * The panel's work on the log: this machine's node work when the panel is its agent
 * (PANEL_AGENT=embedded, the default), and the scheduled rounds.
 */
export async function bindPanelWork(services: PanelServices): Promise<void> {
  const { base, jobs, node, dns } = services;
  if (base.config.agent.mode === 'embedded')
    await bindNodeWork(
      jobs,
      nodeWorkers(base, node, { run: (zone) => dns.publishZone(zone) }, async () => services),
    );
  await scheduleRounds(
    jobs,
    base.config,
    {
      sessions: services.sessions,
      staffSessions: services.console.staff,
      apiTokens: services.apiTokens,
      activity: services.activity,
      sendingLimits: (await services.node.sendingPolicy())?.limits,
      mailAuth: services.mailAuth,
      certificates: services.hosting.certificates,
      cdsScan: services.domains.cdsScan,
      registryMessages: services.domains.registryMessages,
      cron: services.cronScheduler,
      stats: services.statsScheduler,
      backups: services.backups,
      dns,
      serviceChanges: serviceChangesOf(services),
    },
    base.log,
    base.now,
  );
}

/**
 * What the panel does once it is ready to serve: zones and services left with changes to apply
 * (an instance stopped mid-change, the demo seed, the CLI while no panel ran) get their job now,
 * not at the rounds' next occurrence; when the panel is its machine's agent, ProFTPD's copy of the
 * logins (on SQLite) is written before the first login and the mail policy service listens. A
 * failed republish or reapply is logged and leaves the start going (their rounds try again).
 */
export async function panelReady(services: PanelServices): Promise<void> {
  const { base } = services;
  const logged = (event: string, message: string) => (error: unknown) => base.log.error({ err: error, event }, message);
  await services.dns.republish().catch(logged('dns.republish_failed', 'dns republish'));
  if (base.config.agent.mode === 'embedded') {
    await services.node.ftp.worker.publishAll();
    await services.node.start();
  }
  for (const [area, changes] of Object.entries(serviceChangesOf(services)))
    await changes.reapply().catch(logged(`${area}.reapply_failed`, `${area} reapply`));
}
