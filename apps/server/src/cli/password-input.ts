import { type ArgValues, CliError, type CliIo } from './command.ts';
import { password } from './validate.ts';

export const passwordOptions = {
  'password-stdin': { type: 'boolean' },
  password: { type: 'string' },
} as const;

export const PASSWORD_USAGE = '(--password-stdin | --password P)';
export const PASSWORD_HELP =
  '--password-stdin reads the password from standard input (one line); --password P is visible to ' +
  'every user of this machine in the process list, so keep it for throw-away test data.';

/** The password from stdin (trailing newline dropped) or from --password, validated. */
export async function readPassword(values: ArgValues, io: CliIo): Promise<string> {
  const fromStdin = values['password-stdin'] === true;
  const given = values.password;
  if (fromStdin && given !== undefined) throw new CliError('Give either --password-stdin or --password, not both');
  if (typeof given === 'string') return password(given);
  if (!fromStdin) throw new CliError('A password is needed: --password-stdin (recommended) or --password P');
  const input = await io.readStdin();
  return password(input.replace(/\r?\n$/, ''));
}
