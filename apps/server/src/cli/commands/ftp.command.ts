import { FtpUsersFile } from '../../modules/ftp/ftp-users-file.ts';
import { type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';

const sync = defineCommand({
  name: 'sync',
  summary: "Rewrite ProFTPD's copy of the FTP accounts (PANEL_FTP_USERS_FILE) from the database and report drift",
  usage: '',
  parse: () => ({}),
  async run({ runtime, config }) {
    const file = config.hosting.ftpUsersFile;
    if (!file) {
      const why =
        runtime.kind === 'postgres'
          ? 'ProFTPD reads ftp_users_view from PostgreSQL directly: there is no copy to sync.'
          : 'PANEL_FTP_USERS_FILE is not set: the panel keeps no copy for ProFTPD.';
      return { json: { file: null, missing: [], extra: [], changed: [], rewritten: false }, text: why };
    }
    const usersFile = new FtpUsersFile(runtime.db, file);
    const drift = await usersFile.drift();
    await usersFile.write();
    const lines = [
      ...drift.missing.map((login) => [login, 'missing from the copy']),
      ...drift.extra.map((login) => [login, 'extra in the copy (removed)']),
      ...drift.changed.map((login) => [login, 'different in the copy']),
    ];
    const summary = `${file} rewritten from the database.`;
    return {
      json: { file, ...drift, rewritten: true },
      text: lines.length > 0 ? `${table(['LOGIN', 'DRIFT'], lines)}\n${summary}` : `No drift. ${summary}`,
    };
  },
});

export const ftpCommands: CommandGroup = {
  name: 'ftp',
  summary: "FTP accounts: reconcile ProFTPD's copy with the panel",
  commands: [sync],
};
