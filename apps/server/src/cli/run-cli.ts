import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import {
  ConfigSourceError,
  checkDatabaseReachable,
  describeConfigSource,
  findConfigSource,
  INSTALLED_ENV_FILE,
} from '../config-source.ts';
import { nowSeconds } from '../db/database.ts';
import { AppError, DaemonError } from '../errors.ts';
import { translate } from '../i18n/messages.ts';
import { AdminService } from '../modules/admin/admin.service.ts';
import { createDnsService } from '../modules/dns/dns.service.ts';
import { createServiceUsers } from '../modules/hosting/service-users.ts';
import { openRuntime } from '../runtime.ts';
import { CliError, type CliIo, type Command, type CommandGroup } from './command.ts';
import { accountCommands } from './commands/account.command.ts';
import { backupCommands } from './commands/backup.command.ts';
import { brandCommands } from './commands/brand.command.ts';
import { certsCommands } from './commands/certs.command.ts';
import { databasesCommands } from './commands/databases.command.ts';
import { demoCommands } from './commands/demo.command.ts';
import { dnsCommands } from './commands/dns.command.ts';
import { dnssecCommands } from './commands/dnssec.command.ts';
import { doctorCommands } from './commands/doctor.command.ts';
import { ftpCommands } from './commands/ftp.command.ts';
import { jobsCommands } from './commands/jobs.command.ts';
import { legalCommands } from './commands/legal.command.ts';
import { mailCommands } from './commands/mail.command.ts';
import { nodeCommands } from './commands/node.command.ts';
import { outboxCommands } from './commands/outbox.command.ts';
import { permissionCommands } from './commands/permission.command.ts';
import { planCommands } from './commands/plan.command.ts';
import { providerTokenCommands } from './commands/provider.command.ts';
import { registryCommands } from './commands/registry.command.ts';
import { resourceCommands } from './commands/resource.command.ts';
import { seedCommands } from './commands/seed.command.ts';
import { staffCommands } from './commands/staff.command.ts';
import { syncCommands } from './commands/sync.command.ts';
import { sessionCommands, userCommands } from './commands/user.command.ts';
import { usersCommands } from './commands/users.command.ts';
import { webCommands } from './commands/web.command.ts';

export const GROUPS: CommandGroup[] = [
  brandCommands,
  accountCommands,
  userCommands,
  sessionCommands,
  resourceCommands,
  planCommands,
  providerTokenCommands,
  staffCommands,
  registryCommands,
  permissionCommands,
  outboxCommands,
  legalCommands,
  dnsCommands,
  jobsCommands,
  nodeCommands,
  mailCommands,
  ftpCommands,
  webCommands,
  usersCommands,
  certsCommands,
  dnssecCommands,
  databasesCommands,
  syncCommands,
  backupCommands,
  doctorCommands,
  seedCommands,
  demoCommands,
];

const PROGRAM = 'npm run panel --';

function commandLine(group: CommandGroup, command: Command<unknown>): string {
  return [group.name, command.name, command.usage].filter(Boolean).join(' ');
}

export function helpText(): string {
  const lines = [
    'Panel247 admin CLI. It reads the same configuration as the server and migrates the database',
    'if needed. Which configuration: the file PANEL_ENV_FILE names (NAME=value lines, overlaid by',
    'the environment); else the environment when it names the database (PANEL_DATA_DIR,',
    `PANEL_DATABASE_URL or PANEL_CONFIG_FILE); else ${INSTALLED_ENV_FILE}, the installed panel's`,
    '(run as root: it is not readable by others); else the development defaults (SQLite in ./data).',
    'It says on stderr which one it uses, and never creates a database a configuration file points to.',
    '',
    `Usage: ${PROGRAM} <group> <command> [options]`,
    '',
    'Commands:',
  ];
  for (const group of GROUPS) {
    for (const command of group.commands) lines.push(`  ${commandLine(group, command)}`, `      ${command.summary}`);
  }
  lines.push(
    '',
    'Every command takes --json (machine-readable output on stdout, nothing else) and --help.',
    'Errors go to stderr with exit code 1.',
  );
  return lines.join('\n');
}

function commandHelp(group: CommandGroup, command: Command<unknown>): string {
  return [`Usage: ${PROGRAM} ${commandLine(group, command)} [--json]`, '', command.summary].join('\n');
}

function groupHelp(group: CommandGroup): string {
  const lines = [`${group.summary}`, '', 'Commands:'];
  for (const command of group.commands) lines.push(`  ${commandLine(group, command)}`, `      ${command.summary}`);
  return lines.join('\n');
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/** Runs one command line; returns the exit code. Output goes through `io` only. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const [groupName, ...afterGroup] = argv;
    if (groupName === undefined || isHelp(groupName)) {
      io.stdout(`${helpText()}\n`);
      return 0;
    }
    const group = GROUPS.find((g) => g.name === groupName);
    if (!group) throw new CliError(`Unknown command '${groupName}'. Run with --help to list the commands.`);
    // a group with a default command runs it when no command is named (only options follow)
    const named = afterGroup[0] !== undefined && !afterGroup[0].startsWith('-');
    const [commandName, ...rest] = group.defaultCommand && !named ? [group.defaultCommand, ...afterGroup] : afterGroup;
    if (commandName === undefined || isHelp(commandName)) {
      io.stdout(`${groupHelp(group)}\n`);
      return commandName === undefined ? 1 : 0;
    }
    const command = group.commands.find((c) => c.name === commandName);
    if (!command) {
      const known = group.commands.map((c) => c.name).join(', ');
      throw new CliError(`Unknown command '${group.name} ${commandName}' (${group.name} has: ${known})`);
    }

    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({
        args: rest,
        options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw new CliError(
        `${(error as Error).message.split('. ')[0]} (see: ${PROGRAM} ${group.name} ${command.name} --help)`,
      );
    }
    if (parsed.values.help) {
      io.stdout(`${commandHelp(group, command)}\n`);
      return 0;
    }
    const wanted = command.positionals ?? [];
    const most = wanted.length + (command.optionalPositionals?.length ?? 0);
    if (parsed.positionals.length < wanted.length || parsed.positionals.length > most) {
      const usage = `${PROGRAM} ${commandLine(group, command)}`;
      throw new CliError(
        parsed.positionals.length < wanted.length
          ? `Missing ${wanted.slice(parsed.positionals.length).join(' ')}. Usage: ${usage}`
          : `Unexpected argument '${parsed.positionals[most]}'. Usage: ${usage}`,
      );
    }

    const input = await command.parse({ values: parsed.values, positionals: parsed.positionals, io });
    const sudoHint = `run it as root: sudo ${PROGRAM} ${argv.join(' ')}`;
    const source = findConfigSource(io.env, { installedFile: io.installedEnvFile, sudoHint });
    const config = loadConfig(source.env);
    checkDatabaseReachable(source, config, sudoHint);
    // On stderr, so --json output stays JSON; said whenever a file (not the caller's environment) chose it.
    if (source.origin === 'installed' || source.origin === 'env-file' || source.origin === 'development') {
      io.stderr(`${describeConfigSource(source, config)}\n`);
    }
    const runtime = await openRuntime({ ...config, seedDemo: command.seedDemo ?? false });
    try {
      const now = () => nowSeconds();
      const dns = createDnsService(runtime.db, config, runtime.dnsDriver, now, runtime.sender);
      const users = createServiceUsers(runtime.db, config, now);
      const admin = new AdminService(runtime.db, runtime.events, now, {
        serviceReady: async (resource) => {
          await dns.ensureZoneOf(resource.id, resource.reference, resource.referencePunycode);
          // Its own system user and group, and its home, before anything of it runs (system driver).
          await users.ensure(resource.id, resource.referencePunycode);
        },
      });
      const result = await command.run({ admin, runtime, config, now }, input);
      io.stdout(parsed.values.json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.text}\n`);
      return result.exitCode ?? 0;
    } finally {
      await runtime.close();
    }
  } catch (error) {
    io.stderr(`${describe(error)}\n`);
    return 1;
  }
}

function describe(error: unknown): string {
  if (error instanceof CliError || error instanceof ConfigError || error instanceof ConfigSourceError)
    return `Error: ${error.message}`;
  // A daemon's refusal: the panel's words, then the daemon's own (the operator needs both)
  if (error instanceof DaemonError) return `Error: ${translate('en', error.messageKey)}: ${error.detail}`;
  if (error instanceof AppError) return `Error: ${translate('en', error.messageKey, error.params)}`;
  if (error instanceof Error) {
    // AdminService raises plain errors for unknown names ("No account 'x.test'"); anything else
    // (a database refusing a row) is shown by its message too, with the stack only on request.
    return process.env.PANEL_CLI_DEBUG ? `Error: ${error.stack}` : `Error: ${error.message}`;
  }
  return `Error: ${String(error)}`;
}
