import { BrandService } from '../../modules/brand/brand.service.ts';
import { createDatabasesService } from '../../modules/databases/create-databases-service.ts';
import { loadSecretKey } from '../../secret-key.ts';
import type { CommandGroup } from '../command.ts';
import { repairResult, type SyncStep, syncCommand } from '../sync-step.ts';

const PROBLEMS = {
  missing: 'database missing on the server',
  user: 'user missing for a local host',
  grant: 'user lacks its grant on the database',
  external_access: 'access from anywhere (%) differs from the panel',
  password: 'password differs from the panel',
  extra: 'not a database of the panel (left alone)',
} as const;

export const databasesSyncStep: SyncStep = {
  name: 'databases',
  async run({ runtime, config, now }, options) {
    const databases = createDatabasesService(
      runtime.db,
      config,
      new BrandService(runtime.db),
      loadSecretKey(config),
      now,
    );
    try {
      const drift = await databases.sync(options);
      const repairable = drift.filter((entry) => entry.problem !== 'extra');
      return {
        json: { driver: config.databases.driver, dryRun: options.dryRun, databases: drift },
        headers: ['DATABASE', 'DRIFT', 'RESULT'],
        rows: drift.map((entry) => [
          entry.name,
          PROBLEMS[entry.problem],
          entry.problem === 'extra' ? 'reported' : repairResult(options, entry),
        ]),
        summary: databases.live
          ? 'Every database of the panel checked on MariaDB (database, users, grants, passwords).'
          : 'The database driver is "embedded": databases live in the panel only, there is no server to sync.',
        failed: options.dryRun ? 0 : repairable.filter((entry) => !entry.repaired).length,
      };
    } finally {
      await databases.close();
    }
  },
};

export const databasesCommands: CommandGroup = {
  name: 'databases',
  summary: 'Hosted databases: reconcile MariaDB with the panel',
  commands: [
    syncCommand(
      databasesSyncStep,
      "Make MariaDB agree with the panel's databases (each database, its user on every local host and on % while external access is on, its grant and password) and report what had drifted; databases the panel does not know are reported, never touched",
    ),
  ],
};
