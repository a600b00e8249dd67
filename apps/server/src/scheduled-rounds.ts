import type { AppConfig } from './config.ts';
import { cronDailyAt, cronEvery } from './jobs/cron-every.ts';
import type { JobEngine } from './jobs/job-engine.ts';
import { defineRound, type RoundKind, scheduleRound } from './jobs/rounds.ts';
import type { ServiceArea } from './jobs/service-change-log.ts';
import type { Logger } from './logger.ts';
import type { ActivityService } from './modules/activity/activity.service.ts';
import type { ApiTokenService } from './modules/auth/api-token.service.ts';
import type { SessionService } from './modules/auth/session.service.ts';
import type { BackupService } from './modules/backups/backup.service.ts';
import { BACKUP_DAILY } from './modules/backups/backup-jobs.ts';
import type { CronScheduler } from './modules/cron/cron-scheduler.ts';
import type { DnsService } from './modules/dns/dns.service.ts';
import type { CdsScanService } from './modules/domain/cds-scan.service.ts';
import type { RegistryMessagesService } from './modules/domain/registry-messages.service.ts';
import type { CertificateService } from './modules/hosting/certificate.service.ts';
import type { MailAuthService } from './modules/mail/mail-auth.service.ts';
import type { SendingLimitService } from './modules/mail-sending/sending-limit.service.ts';
import { WINDOW_SECONDS } from './modules/mail-sending/sending-limit.service.ts';
import type { StatsScheduler } from './modules/stats/stats.service.ts';
import { NODE_SYNC } from './node-sync.ts';

/** Every round the panel runs on a schedule, once across all instances (the engine's schedules). */
export const ROUNDS = {
  sessionsPurge: defineRound('sessions.purge'),
  apiTokensPurge: defineRound('api-tokens.purge'),
  activityPurge: defineRound('activity.purge'),
  sendCountsPurge: defineRound('mail.send-counts.purge'),
  dkimRotations: defineRound('dkim.rotations'),
  certificateRenewals: defineRound('certificates.renewals'),
  cdsScan: defineRound('dnssec.cds-scan', 6 * 3600),
  dailyBackups: defineRound('backups.daily', 24 * 3600),
  dnsRepublish: defineRound('dns.republish'),
  registryPoll: defineRound('registry.poll'),
  cronTick: defineRound('cron.tick', 120),
  statsRefresh: defineRound('stats.refresh'),
};

/** Each area's round of pending service changes (`<area>.reapply`). */
const REAPPLY_ROUNDS: Record<ServiceArea, RoundKind> = {
  web: defineRound('web.reapply'),
  ftp: defineRound('ftp.reapply'),
  mail: defineRound('mail.reapply'),
  databases: defineRound('databases.reapply'),
};

export interface RoundServices {
  sessions: SessionService;
  /** The console's staff sessions, purged with the customers'. */
  staffSessions: { purgeExpired(): Promise<number> };
  apiTokens: ApiTokenService;
  activity: ActivityService;
  sendingLimits: SendingLimitService | undefined;
  mailAuth: MailAuthService;
  certificates: CertificateService;
  cdsScan: CdsScanService;
  registryMessages: RegistryMessagesService;
  cron: CronScheduler;
  stats: StatsScheduler;
  backups: BackupService;
  dns: DnsService;
  /** Each area's changes on their way to the services' servers. */
  serviceChanges: Record<ServiceArea, { reapply(): Promise<number> }>;
}

/**
 * Schedules the rounds the configuration asks for (a period of 0, or an empty daily time, removes
 * that round's schedule) and binds each to the service that does it. A failed round is logged and
 * left to the next occurrence.
 */
export async function scheduleRounds(
  jobs: JobEngine,
  config: AppConfig,
  services: RoundServices,
  log: Logger,
  now: () => number,
): Promise<void> {
  const failed = (event: string, message: string) => (error: unknown) => log.error({ err: error, event }, message);
  const purged = (event: string, message: string) => (removed: number) => {
    if (removed > 0) log.info({ event, removed }, message);
  };

  await scheduleRound(
    jobs,
    ROUNDS.sessionsPurge,
    '*/10 * * * *',
    async () => {
      await services.sessions.purgeExpired();
      await services.staffSessions.purgeExpired();
    },
    failed('auth.session_purge_failed', 'session purge'),
  );
  await scheduleRound(
    jobs,
    ROUNDS.apiTokensPurge,
    '0 * * * *',
    async () =>
      purged(
        'auth.api_tokens_purged',
        'expired API tokens purged',
      )(await services.apiTokens.purgeExpired(config.apiTokens.purgeDays)),
    failed('auth.api_token_purge_failed', 'API token purge'),
  );
  await scheduleRound(
    jobs,
    ROUNDS.activityPurge,
    cronEvery(config.activity.purgeSeconds),
    async () => purged('activity.purged', 'activity log purged')(await services.activity.purge()),
    failed('activity.purge_failed', 'activity log purge'),
  );
  // The safety net of the zones' publishing: a zone whose job was never sent (its instance
  // stopped right after the change's commit) or ran out of retries gets it again.
  await scheduleRound(
    jobs,
    ROUNDS.dnsRepublish,
    cronEvery(config.dns.republishSeconds),
    async () => void (await services.dns.republish()),
    failed('dns.republish_failed', 'dns republish'),
  );
  // Services whose changes outlived their job's retries (a node away for long) get it again;
  // every 10 minutes, the longest wait between two retries, so that it does not undo the backoff.
  for (const [area, round] of Object.entries(REAPPLY_ROUNDS) as [ServiceArea, RoundKind][])
    await scheduleRound(
      jobs,
      round,
      '*/10 * * * *',
      async () => void (await services.serviceChanges[area].reapply()),
      failed(`${area}.reapply_failed`, `${area} reapply`),
    );
  // The node's safety net: scheduled by the instances like every round, run by the node's worker.
  const nodeSync = cronEvery(config.agent.syncSeconds);
  if (nodeSync) await jobs.schedule(NODE_SYNC, nodeSync, {});
  else await jobs.unschedule(NODE_SYNC);
  const { sendingLimits } = services;
  await scheduleRound(
    jobs,
    ROUNDS.sendCountsPurge,
    sendingLimits ? cronEvery(WINDOW_SECONDS) : undefined,
    async () => void (await sendingLimits?.purge()),
    failed('mail.policy_purge_failed', 'sending counters purge'),
  );
  await scheduleRound(
    jobs,
    ROUNDS.dkimRotations,
    '* * * * *',
    async () => {
      const moved = await services.mailAuth.advanceAll();
      if (moved > 0) log.info({ event: 'dkim.rotation_advanced', services: moved }, 'dkim rotation advanced');
    },
    failed('dkim.rotation_failed', 'dkim rotation'),
  );
  await scheduleRound(
    jobs,
    ROUNDS.certificateRenewals,
    cronEvery(config.acme.renewCheckSeconds),
    async () => void (await services.certificates.renewDue()),
    failed('acme.renewal_failed', 'certificate renewal'),
  );
  await scheduleRound(
    jobs,
    ROUNDS.cdsScan,
    cronEvery(config.dnssec.scanSeconds),
    async () => {
      const results = await services.cdsScan.scanAll();
      log.info({ event: 'dnssec.cds_scan', domains: results.length }, 'CDS scan');
    },
    failed('dnssec.cds_scan_failed', 'CDS scan failed'),
  );
  // Only a registry over EPP has a queue: transfers away and its own changes wait there.
  await scheduleRound(
    jobs,
    ROUNDS.registryPoll,
    config.registry.driver === 'epp' ? cronEvery(config.registry.pollSeconds) : undefined,
    async () => {
      const taken = await services.registryMessages.pollAll();
      if (taken > 0) log.info({ event: 'registry.poll', messages: taken }, 'registry messages read');
    },
    failed('registry.poll_failed', 'registry poll'),
  );
  // Cron's own granularity: every minute, the tasks due at it go to their servers.
  await scheduleRound(
    jobs,
    ROUNDS.cronTick,
    '* * * * *',
    async () => {
      await services.cron.sendDue();
      await services.cron.mailOutputs();
    },
    failed('cron.tick_failed', 'scheduled tasks round'),
  );
  // Each service's statistics read again on its web server (the job runs once per service at a time).
  await scheduleRound(
    jobs,
    ROUNDS.statsRefresh,
    cronEvery(config.stats.refreshSeconds),
    async () => void (await services.stats.sendAll()),
    failed('stats.refresh_failed', 'site statistics round'),
  );
  const { dailyAt } = config.backups;
  await scheduleRound(
    jobs,
    ROUNDS.dailyBackups,
    dailyAt ? cronDailyAt(dailyAt) : undefined,
    // The round takes the day on one instance; the run itself is the node's job.
    async () => {
      const day = await services.backups.takeDailyRun(dailyAt, now());
      if (day) await jobs.send(BACKUP_DAILY, { day });
    },
    failed('backup.daily_failed', 'daily backup failed'),
  );
}
