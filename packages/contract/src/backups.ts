import { z } from 'zod';
import { idParam } from './fields.ts';
import { filePath } from './files.ts';
import { jobStatusSchema } from './job.ts';

/** What a snapshot of a service holds. */
export const backupHoldsSchema = z.object({
  files: z.boolean(),
  /** Local parts of the mailboxes whose mail it holds. */
  mailboxes: z.array(z.string()),
  /**
   * Each mailbox's folders besides the inbox, by local part, as Dovecot keeps them (Maildir++:
   * `.Sent`, `.Archive.2024`, non-ASCII names in modified UTF-7); none recorded for older snapshots.
   */
  mailFolders: z.record(z.string(), z.array(z.string())).default({}),
  /** Names of the databases it holds a dump of. */
  databases: z.array(z.string()),
  dns: z.boolean(),
  /**
   * Where in the snapshot the home's files and the mail folder are when another server held
   * them: their mirror in the staging folder (absent: their own paths on the machine).
   */
  filesFrom: z.string().optional(),
  mailFrom: z.string().optional(),
});
export type BackupHolds = z.infer<typeof backupHoldsSchema>;

export const backupSnapshotSchema = z.object({
  /** restic's snapshot id: its first 8 hex digits (what names it in every restic command). */
  id: z.string(),
  /** Epoch seconds. */
  time: z.number(),
  /** Bytes the service held then. */
  size: z.number(),
  /** Bytes the snapshot added to the repository (what counts against the quota). */
  added: z.number(),
  holds: backupHoldsSchema,
});
export type BackupSnapshot = z.infer<typeof backupSnapshotSchema>;

export const BACKUP_JOB_STEPS = ['queued', 'dumping', 'saving', 'fetching', 'restoring', 'done'] as const;

export const backupJobSchema = z.object({
  id: z.string(),
  kind: z.enum(['backup', 'restore']),
  status: jobStatusSchema,
  step: z.string(),
  /** The failure in the user's language ('' unless failed). */
  error: z.string(),
});
export type BackupJob = z.infer<typeof backupJobSchema>;

export const backupsListDataSchema = z.object({
  /** Newest first. */
  snapshots: z.array(backupSnapshotSchema),
  /** Bytes the service's snapshots take, against the plan's limit. */
  usage: z.number(),
  limit: z.number(),
  /** Whether the user may back up and restore (the backups right's action). */
  writable: z.boolean(),
  /** A backup or restore of the service still running. */
  job: backupJobSchema.nullable(),
});
export type BackupsListData = z.infer<typeof backupsListDataSchema>;

export const backupsServiceParamsSchema = z.object({ id: idParam });

/** `service`: every part the snapshot holds, each over what is there now. */
export const BACKUP_RESTORE_KINDS = ['service', 'files', 'mailbox', 'database', 'dns'] as const;

/**
 * A restore of one part of a snapshot. Over what exists now (files to their place, a mailbox, a
 * database, the zone) it needs `overwrite`; into a new folder or a new database it does not.
 */
export const backupsRestoreParamsSchema = z.object({
  id: idParam,
  snapshot: z.string().regex(/^[0-9a-f]{8,64}$/, { error: 'backup.error.snapshot' }),
  what: z.enum(BACKUP_RESTORE_KINDS, { error: 'validation.required' }),
  path: filePath.optional().default(''),
  toFolder: filePath.optional().default(''),
  mailbox: z.string().max(64).optional().default(''),
  /** One folder of the mailbox (a Maildir++ folder such as `.Sent`, as `holds.mailFolders` names it); '' for all of it. */
  mailFolder: z
    .string()
    .max(255)
    .regex(/^(\.[^./\p{Cc}][^/\p{Cc}]*)?$/u, { error: 'backup.error.mail_folder' })
    .optional()
    .default(''),
  database: z.string().max(64).optional().default(''),
  /** A database's dump into a new database of the service (no confirmation needed). */
  newDatabase: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
    .optional()
    .transform((value) => value === true || value === 'true' || value === '1'),
  overwrite: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
    .optional()
    .transform((value) => value === true || value === 'true' || value === '1'),
});
export type BackupsRestoreParams = z.input<typeof backupsRestoreParamsSchema>;

export const backupsJobParamsSchema = z.object({
  id: idParam,
  jobId: z.string().regex(/^[a-f0-9]{32}$/, { error: 'validation.id' }),
});

export const backupJobDataSchema = z.object({ job: backupJobSchema });
export type BackupJobData = z.infer<typeof backupJobDataSchema>;
