import { isFilePath } from '@panel247/contract/files';
import { sharedWorkers } from '../../drivers/files/confined/confined-workers.ts';
import { translate } from '../../i18n/messages.ts';
import type { RestoreTarget } from '../../modules/backups/backup.service.ts';
import { createBackupService } from '../../modules/backups/create-backup-service.ts';
import { BrandService } from '../../modules/brand/brand.service.ts';
import { createDatabasesNode, createDatabasesService } from '../../modules/databases/create-databases-service.ts';
import { nodeChannelToken } from '../../node-channel/channel-token.ts';
import { NodeChannels } from '../../node-channel/node-channels.ts';
import { partsElsewhere } from '../../node-channel/parts-elsewhere.ts';
import { PlacedFileWorkers } from '../../node-channel/placed-file-workers.ts';
import { databasesWherePlaced } from '../../node-channel/remote-node-parts.ts';
import { loadSecretKey } from '../../secret-key.ts';
import { CliError, type CommandContext, type CommandGroup, defineCommand } from '../command.ts';
import { table, timestamp } from '../output.ts';
import * as v from '../validate.ts';

/**
 * Runs one backup call with the service built for it, closing what it opened afterwards. The
 * parts of services on the provider's servers are reached through their agents: homes and mail
 * folders mirrored, databases dumped and loaded by the server holding them.
 */
export async function withBackups<T>(
  { runtime, config, now }: Pick<CommandContext, 'runtime' | 'config' | 'now'>,
  work: (backups: ReturnType<typeof createBackupService>['backups'], channels: NodeChannels) => Promise<T>,
): Promise<T> {
  const secretKey = loadSecretKey(config);
  const channels = new NodeChannels(runtime.db, nodeChannelToken(secretKey));
  const local = createDatabasesNode(runtime.db, config, secretKey, now);
  const databases = createDatabasesService(runtime.db, config, new BrandService(runtime.db), secretKey, now, {
    node: { driver: databasesWherePlaced(local.driver, channels), worker: local.worker },
  });
  const built = createBackupService(runtime.db, config, runtime.dnsDriver, secretKey, now, {
    jobs: runtime.sender,
    databases,
    // a home on a server is written there by its agent
    workers: new PlacedFileWorkers(runtime.db, sharedWorkers(), channels, config.hosting.root as string, now),
    elsewhere: partsElsewhere(channels, { web: config.hosting.root as string, mail: config.mail.root as string }),
  });
  try {
    return await work(built.backups, channels);
  } finally {
    await built.close();
    channels.close();
    await local.driver.close();
  }
}

const run = defineCommand({
  name: 'run',
  summary:
    'Back up every hosting service (or the one named): its files, mail, databases (dumps), DNS zone and settings, one restic snapshot each',
  usage: '[SERVICE]',
  optionalPositionals: ['SERVICE'],
  parse: ({ positionals }) => ({ service: positionals[0] ? v.reference(positionals[0], 'service') : undefined }),
  async run(ctx, input: { service?: string }) {
    const runs = await withBackups(ctx, (backups) => backups.run(input.service));
    return {
      json: { snapshots: runs },
      text: table(
        ['SERVICE', 'SNAPSHOT', 'TIME'],
        runs.map((r) =>
          r.snapshot
            ? [r.reference, r.snapshot.id.slice(0, 8), timestamp(r.snapshot.time)]
            : [r.reference, `NOT BACKED UP: ${translate('en', r.error ?? 'error.internal')}`, ''],
        ),
      ),
      exitCode: runs.some((r) => !r.snapshot) ? 1 : 0,
    };
  },
});

const list = defineCommand({
  name: 'list',
  summary: "A service's snapshots, oldest first",
  usage: 'SERVICE',
  positionals: ['SERVICE'],
  parse: ({ positionals }) => ({ service: v.reference(positionals[0] as string, 'service') }),
  async run(ctx, input: { service: string }) {
    const snapshots = await withBackups(ctx, (backups) => backups.list(input.service));
    return {
      json: { snapshots },
      text: table(
        ['SNAPSHOT', 'TIME', 'HOLDS'],
        snapshots.map((s) => [s.id.slice(0, 8), timestamp(s.time), s.paths.join(' ')]),
      ),
    };
  },
});

const restore = defineCommand({
  name: 'restore',
  summary:
    "Put back the whole service (--all: every part the snapshot holds) or one part of a snapshot: the service's files (--files PATH, '' for all; --to FOLDER for a new folder instead of their place), a mailbox or one of its folders (--mailbox LOCAL-PART [--mail-folder .Sent]), a database (--database NAME; --new-database for a new one beside it) or the DNS zone (--dns)",
  usage:
    'SERVICE SNAPSHOT (--files PATH [--to FOLDER] | --mailbox LOCAL-PART [--mail-folder .NAME] | --database NAME [--new-database] | --dns)',
  positionals: ['SERVICE', 'SNAPSHOT'],
  options: {
    files: { type: 'string' },
    to: { type: 'string' },
    mailbox: { type: 'string' },
    'mail-folder': { type: 'string' },
    database: { type: 'string' },
    'new-database': { type: 'boolean' },
    dns: { type: 'boolean' },
    all: { type: 'boolean' },
  },
  parse: ({ positionals, values }) => {
    const service = v.reference(positionals[0] as string, 'service');
    const snapshot = positionals[1] as string;
    if (!/^[0-9a-f]{8,64}$/.test(snapshot)) throw new CliError(`SNAPSHOT: ${snapshot} is not a snapshot id`);
    const chosen = ['all', 'files', 'mailbox', 'database', 'dns'].filter((key) => values[key] !== undefined);
    if (chosen.length !== 1)
      throw new CliError('Say what to restore: one of --all, --files, --mailbox, --database, --dns');
    let target: RestoreTarget;
    if (values.all === true) target = { kind: 'service' };
    else if (values.files !== undefined) {
      const files = String(values.files).replace(/^\/+|\/+$/g, '');
      const to = values.to === undefined ? undefined : String(values.to).replace(/^\/+|\/+$/g, '');
      if (!isFilePath(files)) throw new CliError(`--files: ${files} is not a path inside the service`);
      if (to !== undefined && (to === '' || !isFilePath(to)))
        throw new CliError(`--to: ${to} is not a folder inside the service`);
      target = { kind: 'files', path: files, toFolder: to };
    } else if (values.mailbox !== undefined) {
      const folder = values['mail-folder'] === undefined ? undefined : String(values['mail-folder']);
      target = { kind: 'mailbox', localPart: String(values.mailbox), folder };
    } else if (values.database !== undefined)
      target = { kind: 'database', name: String(values.database), intoNew: values['new-database'] === true };
    else target = { kind: 'dns' };
    return { service, snapshot, target };
  },
  async run(ctx, input: { service: string; snapshot: string; target: RestoreTarget }) {
    await withBackups(ctx, (backups) => backups.restore(input.service, input.snapshot, input.target));
    return { json: { restored: input.target }, text: `Restored from ${input.snapshot}.` };
  },
});

const check = defineCommand({
  name: 'check',
  summary: "restic's consistency check of the repository",
  usage: '',
  parse: () => ({}),
  async run(ctx) {
    const report = await withBackups(ctx, (backups) => backups.check());
    return { json: { ok: true, report }, text: report };
  },
});

const prune = defineCommand({
  name: 'prune',
  summary:
    'Keep PANEL_BACKUP_KEEP_DAILY/WEEKLY/MONTHLY snapshots of each service (7, 4, 3) and remove the data no snapshot needs',
  usage: '',
  parse: () => ({}),
  async run(ctx) {
    await withBackups(ctx, (backups) => backups.prune());
    return { json: { pruned: true }, text: 'Retention applied and unused data removed.' };
  },
});

export const backupCommands: CommandGroup = {
  name: 'backup',
  summary: 'Backups of the hosting services (restic): run, list, restore, check, prune',
  commands: [run, list, restore, check, prune],
};
