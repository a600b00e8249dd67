import { STAFF_USERNAME, StaffUsers } from '../../modules/console/staff-users.service.ts';
import { type ArgValues, CliError, type CommandContext, type CommandGroup, defineCommand } from '../command.ts';
import { table, timestamp } from '../output.ts';
import { PASSWORD_HELP, PASSWORD_USAGE, passwordOptions, readPassword } from '../password-input.ts';
import * as v from '../validate.ts';

const staff = ({ runtime, now }: CommandContext) => new StaffUsers(runtime.db, now);

function staffName(values: ArgValues): string {
  const name = v.requiredString(values, 'user').toLowerCase();
  if (!STAFF_USERNAME.test(name))
    throw new CliError(`--user ${JSON.stringify(name)} must be a-z, 0-9, '.', '_' and '-' (64 at most)`);
  return name;
}

const add = defineCommand({
  name: 'add',
  summary: `Make a user of the provider's console (/console/); they set up their second factor at their first sign-in. ${PASSWORD_HELP}`,
  usage: `--user NAME ${PASSWORD_USAGE}`,
  options: { user: { type: 'string' }, ...passwordOptions },
  parse: async ({ values, io }) => ({ user: staffName(values), password: await readPassword(values, io) }),
  async run(ctx, input: { user: string; password: string }) {
    await staff(ctx).add(input.user, input.password);
    return {
      json: { user: input.user },
      text: `Console user ${input.user} made: they sign in at /console/ and set up their second factor there.`,
    };
  },
});

const list = defineCommand({
  name: 'list',
  summary: "The console's users: whether each has set up a second factor, and their last sign-in",
  usage: '',
  parse: () => ({}),
  async run(ctx) {
    const all = await staff(ctx).list();
    return {
      json: { staff: all },
      text:
        all.length === 0
          ? 'No console users.'
          : table(
              ['USER', 'SECOND FACTOR', 'MADE', 'LAST SIGN-IN'],
              all.map((one) => [
                one.username,
                one.secondFactor ? 'yes' : 'not set up yet',
                timestamp(one.createdAt) ?? '',
                timestamp(one.lastLoginAt) ?? 'never',
              ]),
            ),
    };
  },
});

const byName = (
  name: string,
  summary: string,
  work: (users: StaffUsers, user: string) => Promise<void>,
  done: string,
) =>
  defineCommand({
    name,
    summary,
    usage: '--user NAME',
    options: { user: { type: 'string' } },
    parse: ({ values }) => ({ user: staffName(values) }),
    async run(ctx, input: { user: string }) {
      await work(staff(ctx), input.user);
      return { json: { user: input.user }, text: `${done}: ${input.user}` };
    },
  });

const password = defineCommand({
  name: 'password',
  summary: `A console user's new password; their sessions end. ${PASSWORD_HELP}`,
  usage: `--user NAME ${PASSWORD_USAGE}`,
  options: { user: { type: 'string' }, ...passwordOptions },
  parse: async ({ values, io }) => ({ user: staffName(values), password: await readPassword(values, io) }),
  async run(ctx, input: { user: string; password: string }) {
    await staff(ctx).setPassword(input.user, input.password);
    return { json: { user: input.user }, text: `New password for console user ${input.user}; their sessions ended.` };
  },
});

export const staffCommands: CommandGroup = {
  name: 'staff',
  summary: "Users of the provider's console: add, list, password, reset-2fa, remove",
  commands: [
    add,
    list,
    password,
    byName(
      'reset-2fa',
      "A console user's second factor forgotten (a lost phone): set up again at their next sign-in; sessions end",
      (users, user) => users.resetSecondFactor(user),
      'Second factor reset; set up again at the next sign-in',
    ),
    byName(
      'remove',
      'Remove a console user; their sessions end',
      (users, user) => users.remove(user),
      'Console user removed',
    ),
  ],
};
