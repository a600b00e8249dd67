import type { AppConfig } from '../../config.ts';
import type { PlanLimits } from './plan.ts';

/**
 * The limits every service had before plans were data, from the configuration: the plan
 * `default` takes them when the panel upgrades (see runtime.ts), and new services without a plan
 * named go on it. The counts the configuration never limited stay unlimited.
 */
export function configuredPlan(config: AppConfig): PlanLimits {
  return {
    webSpaceMb: config.hosting.webSpaceMb,
    trafficMb: config.hosting.trafficMb,
    sites: null,
    mailboxes: null,
    mailboxMb: config.mail.maxQuotaMb,
    aliases: null,
    ftpAccounts: null,
    databases: config.databases.maxPerService,
    databaseSpaceMb: config.hosting.databaseSpaceMb,
    backupMb: config.backups.quotaMb,
    phpVersions: [],
    phpWorkers: 5,
    cronTasks: 10,
    cronMinIntervalMinutes: 5,
    sshKeys: 10,
    spamSenders: 200,
    statsLogMb: 100,
  };
}
