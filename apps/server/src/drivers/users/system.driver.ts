import { execFile } from 'node:child_process';
import { DaemonError } from '../../errors.ts';
import {
  type FoundUser,
  SERVICE_USER_NAME,
  type ServiceUserDriver,
  type SystemUser,
  type UserState,
} from './users.driver.ts';

/** What running one command answered: its exit code (0 success) and output. */
export interface Executed {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program with an argument array, never through a shell; a refusal is an exit code, not a throw. */
export type Executor = (file: string, args: string[]) => Promise<Executed>;

export const execute: Executor = (file, args) =>
  new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: 15_000, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' } },
      (error, stdout, stderr) => {
        const code = error
          ? typeof (error as { code?: unknown }).code === 'number'
            ? (error as { code: number }).code
            : -1
          : 0;
        resolve({
          code,
          stdout: String(stdout),
          stderr: String(stderr || (error && code === -1 ? error.message : '')),
        });
      },
    );
  });

/** Debian's shadow tools (package `passwd`) and glibc's getent. */
export interface SystemUserCommands {
  getent: string;
  groupadd: string;
  useradd: string;
  userdel: string;
  groupdel: string;
}

export const DEBIAN_COMMANDS: SystemUserCommands = {
  getent: '/usr/bin/getent',
  groupadd: '/usr/sbin/groupadd',
  useradd: '/usr/sbin/useradd',
  userdel: '/usr/sbin/userdel',
  groupdel: '/usr/sbin/groupdel',
};

/** The login shell of every service user: no one logs in as it (SFTP, if offered, is ProFTPD's or sshd's internal-sftp). */
export const NO_LOGIN_SHELL = '/usr/sbin/nologin';

/** getent's exit code for "no such key". */
const NOT_FOUND = 2;
/** A home as passwd can hold it: absolute, no colon, no control character. */
const HOME = /^\/[A-Za-z0-9._/-]{1,4000}$/;

interface Entry {
  name: string;
  id: number;
  /** passwd only: the primary group. */
  gid?: number;
}

function checkUser(user: Pick<SystemUser, 'name' | 'uid' | 'gid'>): void {
  if (!SERVICE_USER_NAME.test(user.name)) throw new Error(`not a service user's name: ${JSON.stringify(user.name)}`);
  for (const id of [user.uid, user.gid]) {
    if (!Number.isSafeInteger(id) || id < 1000 || id > 2_147_483_646) throw new Error(`bad uid or gid: ${id}`);
  }
}

/**
 * Real system accounts with Debian's shadow tools, each run with an argument array:
 * `groupadd -g GID NAME`, then `useradd -u UID -g GID -M -d HOME -s /usr/sbin/nologin NAME` (no
 * home made: the service home is the panel's; no login shell), `userdel NAME` and `groupdel NAME`.
 * Every step looks first (`getent`), so a repeated call does nothing, and a name or number that
 * another account holds stops it before anything is created.
 */
export class SystemServiceUserDriver implements ServiceUserDriver {
  readonly kind = 'system' as const;

  constructor(
    private readonly run: Executor = execute,
    private readonly commands: SystemUserCommands = DEBIAN_COMMANDS,
  ) {}

  /** One passwd or group entry by name or number, or undefined when the system has none. */
  private async lookup(database: 'passwd' | 'group', key: string): Promise<Entry | undefined> {
    const answer = await this.run(this.commands.getent, [database, key]);
    if (answer.code === NOT_FOUND) return undefined;
    if (answer.code !== 0) throw this.failure(`getent ${database} ${key}`, answer);
    const fields = (answer.stdout.split('\n')[0] ?? '').split(':');
    const entry: Entry = { name: fields[0] ?? '', id: Number(fields[2]) };
    if (database === 'passwd') entry.gid = Number(fields[3]);
    return entry;
  }

  private failure(what: string, answer: Executed): DaemonError {
    return new DaemonError('hosting.error.service_user', `${what}: exit ${answer.code} ${answer.stderr.trim()}`.trim());
  }

  private async must(file: string, args: string[]): Promise<void> {
    const answer = await this.run(file, args);
    if (answer.code !== 0) throw this.failure([file, ...args].join(' '), answer);
  }

  /** Why the account cannot be this user's, or undefined; `missing` says what is still to make. */
  private async inspect(user: SystemUser): Promise<{ clash?: string; group: boolean; passwd: boolean }> {
    const group = await this.lookup('group', user.name);
    if (group && group.id !== user.gid) {
      return { clash: `group ${user.name} has gid ${group.id}, not ${user.gid}`, group: true, passwd: false };
    }
    if (!group) {
      const other = await this.lookup('group', String(user.gid));
      if (other) return { clash: `gid ${user.gid} is the group ${other.name}'s`, group: false, passwd: false };
    }
    const passwd = await this.lookup('passwd', user.name);
    if (passwd && (passwd.id !== user.uid || passwd.gid !== user.gid)) {
      return {
        clash: `user ${user.name} has uid ${passwd.id} and gid ${passwd.gid}, not ${user.uid} and ${user.gid}`,
        group: group !== undefined,
        passwd: true,
      };
    }
    if (!passwd) {
      const other = await this.lookup('passwd', String(user.uid));
      if (other)
        return { clash: `uid ${user.uid} is the user ${other.name}'s`, group: group !== undefined, passwd: false };
    }
    return { group: group !== undefined, passwd: passwd !== undefined };
  }

  async check(user: SystemUser): Promise<UserState> {
    checkUser(user);
    const found = await this.inspect(user);
    if (found.clash) return { state: 'clash', detail: found.clash };
    return found.group && found.passwd ? { state: 'present' } : { state: 'missing' };
  }

  async ensure(user: SystemUser): Promise<'created' | 'present'> {
    checkUser(user);
    if (!HOME.test(user.home) || user.home.includes('/../') || user.home.endsWith('/..')) {
      throw new Error(`bad home: ${JSON.stringify(user.home)}`);
    }
    const found = await this.inspect(user);
    if (found.clash) throw new DaemonError('hosting.error.service_user', found.clash);
    if (found.group && found.passwd) return 'present';
    if (!found.group) await this.must(this.commands.groupadd, ['-g', String(user.gid), user.name]);
    if (!found.passwd) {
      await this.must(this.commands.useradd, [
        '-u',
        String(user.uid),
        '-g',
        String(user.gid),
        '-M',
        '-d',
        user.home,
        '-s',
        NO_LOGIN_SHELL,
        user.name,
      ]);
    }
    return 'created';
  }

  async remove(user: Pick<SystemUser, 'name' | 'uid' | 'gid'>): Promise<void> {
    checkUser(user);
    const passwd = await this.lookup('passwd', user.name);
    if (passwd) {
      if (passwd.id !== user.uid) {
        throw new DaemonError(
          'hosting.error.service_user',
          `user ${user.name} has uid ${passwd.id}, not ${user.uid}: left alone`,
        );
      }
      await this.must(this.commands.userdel, [user.name]);
    }
    // userdel removes a primary group of the same name that no one else uses (USERGROUPS_ENAB): look again.
    const group = await this.lookup('group', user.name);
    if (group) {
      if (group.id !== user.gid) {
        throw new DaemonError(
          'hosting.error.service_user',
          `group ${user.name} has gid ${group.id}, not ${user.gid}: left alone`,
        );
      }
      await this.must(this.commands.groupdel, [user.name]);
    }
  }

  async list(): Promise<FoundUser[]> {
    const answer = await this.run(this.commands.getent, ['passwd']);
    if (answer.code !== 0) throw this.failure('getent passwd', answer);
    const users: FoundUser[] = [];
    for (const line of answer.stdout.split('\n')) {
      const [name = '', , uid, gid] = line.split(':');
      if (SERVICE_USER_NAME.test(name)) users.push({ name, uid: Number(uid), gid: Number(gid) });
    }
    return users.sort((a, b) => a.uid - b.uid);
  }
}
