/**
 * A plan's limits as the panel enforces them. `null` is no limit. Sizes are MiB, as the provider
 * writes them; counts are how many of each a service may have.
 */
export interface PlanLimits {
  webSpaceMb: number | null;
  trafficMb: number | null;
  sites: number | null;
  mailboxes: number | null;
  /** The largest quota one mailbox may have. */
  mailboxMb: number | null;
  aliases: number | null;
  ftpAccounts: number | null;
  databases: number | null;
  databaseSpaceMb: number | null;
  backupMb: number | null;
  /** The PHP versions offered ([] : every version the server has). */
  phpVersions: string[];
  /** Each service's PHP-FPM pool's `pm.max_children`. */
  phpWorkers: number;
  /** Scheduled tasks a service may have. */
  cronTasks: number | null;
  /** The shortest interval between two runs of one task, in minutes (1: every minute). */
  cronMinIntervalMinutes: number;
  /** SSH keys a service may have for SFTP. */
  sshKeys: number | null;
  /** Entries a mail service's spam allow and block lists may hold together. */
  spamSenders: number | null;
  /** MiB of its sites' access logs a service keeps for its statistics. */
  statsLogMb: number | null;
}

export interface Plan extends PlanLimits {
  id: number;
  name: string;
  /** Hosting services on it. */
  services: number;
}

/** The limits a service's count of something is held to, as the errors name them. */
export const COUNTED_LIMITS = [
  'sites',
  'mailboxes',
  'aliases',
  'ftpAccounts',
  'databases',
  'cronTasks',
  'sshKeys',
  'spamSenders',
] as const;
export type CountedLimit = (typeof COUNTED_LIMITS)[number];

/** The limits on space a service's usage is held to. */
export type SizedLimit = 'webSpaceMb' | 'databaseSpaceMb' | 'mailboxMb';

/** A plan without a limit: what `plan add` starts from (PHP workers as every pool had before plans). */
export const UNLIMITED_PLAN: PlanLimits = {
  webSpaceMb: null,
  trafficMb: null,
  sites: null,
  mailboxes: null,
  mailboxMb: null,
  aliases: null,
  ftpAccounts: null,
  databases: null,
  databaseSpaceMb: null,
  backupMb: null,
  phpVersions: [],
  phpWorkers: 5,
  cronTasks: null,
  cronMinIntervalMinutes: 1,
  sshKeys: null,
  spamSenders: null,
  statsLogMb: null,
};

export const PLAN_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The most PHP workers one pool may be given: a typo of 5000 would let one service take a server. */
export const MAX_PHP_WORKERS = 200;

/** The longest minimum interval a plan may set between two runs of a task: a day. */
export const MAX_CRON_INTERVAL_MINUTES = 1440;

/** What a service holds against its plan: the counts, and its sizes in bytes where measured. */
export interface PlanUsage {
  counts: Record<CountedLimit, number>;
  /** The largest quota among its mailboxes, MiB. */
  largestMailboxMb: number;
  webBytes?: number;
  databaseBytes?: number;
  phpVersionsInUse: string[];
}

export interface PlanExcess {
  limit: CountedLimit | SizedLimit | 'phpVersions';
  /** What the service has (a count, MiB, or the versions its sites use). */
  used: number | string;
  /** What the plan allows. */
  allowed: number | string;
}

const MIB = 1024 * 1024;

/** What of a service's usage a plan's limits would not allow: the answer to a refused downgrade. */
export function excessOver(limits: PlanLimits, usage: PlanUsage): PlanExcess[] {
  const excess: PlanExcess[] = [];
  for (const limit of COUNTED_LIMITS) {
    const allowed = limits[limit];
    if (allowed !== null && usage.counts[limit] > allowed) excess.push({ limit, used: usage.counts[limit], allowed });
  }
  if (limits.mailboxMb !== null && usage.largestMailboxMb > limits.mailboxMb)
    excess.push({ limit: 'mailboxMb', used: usage.largestMailboxMb, allowed: limits.mailboxMb });
  const sized: [SizedLimit, number | undefined][] = [
    ['webSpaceMb', usage.webBytes],
    ['databaseSpaceMb', usage.databaseBytes],
  ];
  for (const [limit, bytes] of sized) {
    const allowed = limits[limit];
    if (allowed !== null && bytes !== undefined && bytes > allowed * MIB)
      excess.push({ limit, used: Math.ceil(bytes / MIB), allowed });
  }
  if (limits.phpVersions.length > 0) {
    const outside = usage.phpVersionsInUse.filter((version) => !limits.phpVersions.includes(version));
    if (outside.length > 0)
      excess.push({ limit: 'phpVersions', used: outside.join(', '), allowed: limits.phpVersions.join(', ') });
  }
  return excess;
}
