import { createServiceUsers } from '../../modules/hosting/service-users.ts';
import type { CommandGroup } from '../command.ts';
import { repairResult, type SyncStep, syncCommand } from '../sync-step.ts';

const PROBLEMS = {
  no_row: 'no user yet',
  no_account: 'no system account',
  missing: 'home missing',
  not_a_folder: 'home is not a folder (left as it is)',
  outside_root: 'home outside PANEL_HOSTING_ROOT (left as it is)',
  owner: "home not owned by the service's user",
  group: "home's group not the web server's",
  mode: 'home not mode 0750',
} as const;

export const usersSyncStep: SyncStep = {
  name: 'users',
  async run({ runtime, config, now }, options) {
    const report = await createServiceUsers(runtime.db, config, now).sync(options);
    const failed = report.filter((entry) => !options.dryRun && !entry.repaired).length;
    const describe = (entry: (typeof report)[number]): string => {
      if (entry.drift === 'clash') return `name or number taken by another account: ${entry.error ?? ''}`;
      if (entry.drift === 'extra') return 'a system account of no service';
      return entry.problems.map((problem) => PROBLEMS[problem]).join(', ');
    };
    const enabled = config.serviceUsers.driver === 'system';
    return {
      json: { driver: config.serviceUsers.driver, dryRun: options.dryRun, users: report },
      headers: ['ID', 'SERVICE', 'USER', 'DRIFT', 'RESULT'],
      rows: report.map((entry) => [
        entry.serviceId === null ? '—' : String(entry.serviceId),
        entry.domain ?? '—',
        entry.user,
        describe(entry),
        entry.drift === 'clash' ? 'reported' : repairResult(options, entry),
      ]),
      summary: enabled
        ? `Service users driver "system": ${report.length} drift(s)${options.dryRun ? '' : `, ${report.length - failed} repaired`}.`
        : 'Service users driver "embedded": services have no system users of their own (PANEL_SERVICE_USERS_DRIVER=system gives them one).',
      failed,
    };
  },
};

export const usersCommands: CommandGroup = {
  name: 'users',
  summary: "Hosting services' own system users and groups: reconcile the system and the homes with the panel",
  commands: [
    syncCommand(
      usersSyncStep,
      "Give every hosting service its system user and group (services made before get theirs: the migration step), make the system's accounts match, set each home's owner, group and mode (0750), remove accounts of services that are gone, and report what had drifted",
    ),
  ],
};
