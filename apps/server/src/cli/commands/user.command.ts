import { CliError, type CommandGroup, defineCommand, type ParsedArgs } from '../command.ts';
import { table, timestamp } from '../output.ts';
import { PASSWORD_HELP, PASSWORD_USAGE, passwordOptions, readPassword } from '../password-input.ts';
import * as v from '../validate.ts';

interface UserPasswordInput {
  domain: string;
  user: string;
  password: string;
}

const list = defineCommand({
  name: 'list',
  summary: 'List the users, of every account or of one',
  usage: '[--domain D]',
  options: { domain: { type: 'string' } },
  parse({ values }) {
    const domain = v.optionString(values, 'domain');
    return { domain: domain === undefined ? undefined : v.domainName(domain) };
  },
  async run({ admin }, input: { domain?: string }) {
    if (input.domain) await admin.accountId(input.domain);
    const users = (await admin.listUsers(input.domain)).map((row) => ({
      id: row.id,
      domain: row.domain_name,
      user: row.username,
      lastLoginAt: row.last_login_at,
      manageUsers: row.manage_users === 1,
      disabled: row.disabled_at !== null,
    }));
    return {
      json: users,
      text: table(
        ['ID', 'DOMAIN', 'USER', 'LAST LOGIN (UTC)', 'MANAGES USERS', 'DISABLED'],
        users.map((u) => [
          u.id,
          u.domain,
          u.user,
          timestamp(u.lastLoginAt),
          u.manageUsers ? 'yes' : 'no',
          u.disabled ? 'yes' : 'no',
        ]),
      ),
    };
  },
});

async function parseUserPassword({ values, io }: ParsedArgs): Promise<UserPasswordInput> {
  const domain = v.domainName(v.requiredString(values, 'domain'));
  const user = v.username(v.requiredString(values, 'user'));
  return { domain, user, password: await readPassword(values, io) };
}

const add = defineCommand({
  name: 'add',
  summary: `Create a user on an account (an existing user keeps its password). ${PASSWORD_HELP}`,
  usage: `--domain D --user U ${PASSWORD_USAGE}`,
  options: { domain: { type: 'string' }, user: { type: 'string' }, ...passwordOptions },
  parse: parseUserPassword,
  async run({ admin }, input: UserPasswordInput) {
    const id = await admin.ensureUser(input.domain, input.user, input.password);
    return {
      json: { id, domain: input.domain, user: input.user },
      text: `User '${input.user}' (id ${id}) on '${input.domain}' ready`,
    };
  },
});

const password = defineCommand({
  name: 'password',
  summary: `Set a new password and end the user's sessions. ${PASSWORD_HELP}`,
  usage: `--domain D --user U ${PASSWORD_USAGE}`,
  options: { domain: { type: 'string' }, user: { type: 'string' }, ...passwordOptions },
  parse: parseUserPassword,
  async run({ admin }, input: UserPasswordInput) {
    await admin.resetPassword(input.domain, input.user, input.password);
    return {
      json: { domain: input.domain, user: input.user, passwordChanged: true, sessionsEnded: true },
      text: `Password of '${input.user}' on '${input.domain}' changed; their sessions were ended`,
    };
  },
});

const userTarget = (values: Parameters<typeof v.requiredString>[0]) => ({
  domain: v.domainName(v.requiredString(values, 'domain')),
  user: v.username(v.requiredString(values, 'user')),
});

const email = defineCommand({
  name: 'email',
  summary: "Set the user's own address, where changes to their login security are reported ('' forgets it)",
  usage: '--domain D --user U --email E',
  options: { domain: { type: 'string' }, user: { type: 'string' }, email: { type: 'string' } },
  parse({ values }) {
    return { ...userTarget(values), email: v.email(v.requiredString(values, 'email'), 'email') };
  },
  async run({ admin }, input: { domain: string; user: string; email: string }) {
    await admin.setUserEmail(input.domain, input.user, input.email);
    return {
      json: input,
      text: input.email
        ? `Security notices of '${input.user}' on '${input.domain}' go to ${input.email}`
        : `'${input.user}' on '${input.domain}' has no address for security notices`,
    };
  },
});

const resetTwoFactor = defineCommand({
  name: 'reset-2fa',
  summary: "Turn a user's two-factor login off (TOTP, recovery codes and passkeys) and end their sessions",
  usage: '--domain D --user U',
  options: { domain: { type: 'string' }, user: { type: 'string' } },
  parse: ({ values }) => userTarget(values),
  async run({ admin }, input: { domain: string; user: string }) {
    const removed = await admin.removeSecondFactor(input.domain, input.user);
    return {
      json: { ...input, secondFactorRemoved: removed, sessionsEnded: true },
      text: removed
        ? `Two-factor login of '${input.user}' on '${input.domain}' turned off; their sessions were ended`
        : `'${input.user}' on '${input.domain}' had no second factor; their sessions were ended`,
    };
  },
});

const manager = defineCommand({
  name: 'manager',
  summary: "Grant (--grant) or take (--revoke) a user's right to manage the account's users (one user keeps it)",
  usage: '--domain D --user U --grant|--revoke',
  options: {
    domain: { type: 'string' },
    user: { type: 'string' },
    grant: { type: 'boolean' },
    revoke: { type: 'boolean' },
  },
  parse({ values }) {
    if (Boolean(values.grant) === Boolean(values.revoke)) throw new CliError('Give one of --grant or --revoke');
    return { ...userTarget(values), manageUsers: Boolean(values.grant) };
  },
  async run({ admin }, input: { domain: string; user: string; manageUsers: boolean }) {
    await admin.setManageUsers(input.domain, input.user, input.manageUsers);
    return {
      json: input,
      text: input.manageUsers
        ? `'${input.user}' on '${input.domain}' manages the account's users`
        : `'${input.user}' on '${input.domain}' no longer manages the account's users`,
    };
  },
});

export const userCommands: CommandGroup = {
  name: 'user',
  summary: 'Users of an account: list, create, reset a password, security notices, two-factor reset, user managers',
  commands: [list, add, password, email, resetTwoFactor, manager],
};

const end = defineCommand({
  name: 'end',
  summary: 'End every session of a user (their open panels go back to the login)',
  usage: '--domain D --user U',
  options: { domain: { type: 'string' }, user: { type: 'string' } },
  parse({ values }) {
    return {
      domain: v.domainName(v.requiredString(values, 'domain')),
      user: v.username(v.requiredString(values, 'user')),
    };
  },
  async run({ admin }, input: { domain: string; user: string }) {
    await admin.endSessions(input.domain, input.user);
    return {
      json: { domain: input.domain, user: input.user, sessionsEnded: true },
      text: `Sessions of '${input.user}' on '${input.domain}' ended`,
    };
  },
});

export const sessionCommands: CommandGroup = {
  name: 'sessions',
  summary: 'Login sessions',
  commands: [end],
};
