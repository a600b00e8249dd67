import { createFtpDriver } from '../../drivers/ftp/create-ftp-driver.ts';
import { createHomeWork } from '../../modules/files/service-file-owner.ts';
import { syncFtpLogins } from '../../modules/ftp/ftp-sync.ts';
import type { CommandGroup } from '../command.ts';
import { repairResult, type SyncStep, syncCommand } from '../sync-step.ts';

const HOME_PROBLEMS = {
  missing: 'home folder missing',
  owner: 'home folder owned by another user',
  not_a_folder: 'home folder is not a folder (left as it is)',
  outside_root: 'home folder outside PANEL_HOSTING_ROOT (left as it is)',
} as const;

export const ftpSyncStep: SyncStep = {
  name: 'ftp',
  async run({ runtime, config }, options) {
    // Missing account folders are made by the services' workers, as their users.
    const driver = createFtpDriver(config, createHomeWork(runtime.db, config));
    const drift = await syncFtpLogins(runtime.db, driver, options, config.agent.node);
    // The copy is rewritten as a whole: each of its lines is repaired unless this is a dry run.
    const copied = { repaired: !options.dryRun };
    const rows = [
      ...drift.views.map((view) => [view.view, 'view missing or incomplete', repairResult(options, view)]),
      ...drift.missing.map((login) => [login, 'missing from the copy', repairResult(options, copied)]),
      ...drift.extra.map((login) => [login, 'extra in the copy', repairResult(options, copied)]),
      ...drift.changed.map((login) => [login, 'different in the copy', repairResult(options, copied)]),
      ...drift.homes.map((home) => [
        home.login,
        `${HOME_PROBLEMS[home.problem]}: ${home.home}`,
        home.problem === 'missing' || home.problem === 'owner' ? repairResult(options, home) : 'reported',
      ]),
    ];
    const copy = drift.file
      ? `${drift.file} ${options.dryRun ? 'compared with' : 'rewritten from'} the database.`
      : 'No copy of the accounts is kept (ProFTPD reads ftp_users_view from PostgreSQL, or the FTP driver is embedded).';
    const failed = options.dryRun ? 0 : drift.views.filter((view) => !view.repaired).length;
    return {
      json: {
        driver: config.hosting.ftpDriver,
        dryRun: options.dryRun,
        ...drift,
        rewritten: drift.file !== null && !options.dryRun,
      },
      headers: ['LOGIN', 'DRIFT', 'RESULT'],
      rows,
      summary: `${copy} Home folders checked.`,
      failed,
    };
  },
};

export const ftpCommands: CommandGroup = {
  name: 'ftp',
  summary:
    "FTP accounts: reconcile the FTP server's side (its view, copy of the accounts, home folders) with the panel",
  commands: [
    syncCommand(
      ftpSyncStep,
      "Repair what FTP logins need besides the rows (ftp_users_view; home folders; on SQLite ProFTPD's copy of the accounts, PANEL_FTP_USERS_FILE) and report what had drifted",
    ),
  ],
};
