import { createFtpDriver } from '../../drivers/ftp/create-ftp-driver.ts';
import { syncFtpLogins } from '../../modules/ftp/ftp-sync.ts';
import { type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';

const HOME_PROBLEMS = {
  missing: 'home folder missing (created)',
  owner: 'home folder owned by another user (given back)',
  not_a_folder: 'home folder is not a folder (left as it is)',
  outside_root: 'home folder outside PANEL_HOSTING_ROOT (left as it is)',
} as const;

const sync = defineCommand({
  name: 'sync',
  summary:
    "Repair what FTP logins need outside the database (home folders; on SQLite ProFTPD's copy of the accounts, PANEL_FTP_USERS_FILE) and report what had drifted",
  usage: '',
  parse: () => ({}),
  async run({ runtime, config }) {
    const drift = await syncFtpLogins(runtime.db, createFtpDriver(config));
    const lines = [
      ...drift.missing.map((login) => [login, 'missing from the copy']),
      ...drift.extra.map((login) => [login, 'extra in the copy (removed)']),
      ...drift.changed.map((login) => [login, 'different in the copy']),
      ...drift.homes.map((home) => [home.login, `${HOME_PROBLEMS[home.problem]}: ${home.home}`]),
    ];
    const copy = drift.file
      ? `${drift.file} rewritten from the database.`
      : 'No copy of the accounts is kept (ProFTPD reads ftp_users_view from PostgreSQL, or the FTP driver is embedded).';
    const summary = `${copy} Home folders checked.`;
    return {
      json: { driver: config.hosting.ftpDriver, ...drift, rewritten: drift.file !== null },
      text: lines.length > 0 ? `${table(['LOGIN', 'DRIFT'], lines)}\n${summary}` : `No drift. ${summary}`,
    };
  },
});

export const ftpCommands: CommandGroup = {
  name: 'ftp',
  summary: "FTP accounts: reconcile the FTP server's side (copy of the accounts, home folders) with the panel",
  commands: [sync],
};
