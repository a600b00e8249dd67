import { BrandService } from '../../modules/brand/brand.service.ts';
import { createHostingService } from '../../modules/hosting/create-hosting-service.ts';
import { createPlansService } from '../../modules/plans/create-plans-service.ts';
import {
  MAX_CRON_INTERVAL_MINUTES,
  PLAN_NAME,
  type Plan,
  type PlanLimits,
  UNLIMITED_PLAN,
} from '../../modules/plans/plan.ts';
import { NUMERIC_LIMITS, type PlansService } from '../../modules/plans/plans.service.ts';
import { loadSecretKey } from '../../secret-key.ts';
import { CliError, type CommandContext, type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';
import * as v from '../validate.ts';

/** Each numeric limit's option: --web-space-mb, --mailboxes… ("unlimited" for none). */
const optionOf = (limit: string) => limit.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const LIMIT_OPTIONS = Object.fromEntries(
  [...NUMERIC_LIMITS.map(optionOf), 'php-versions', 'php-workers', 'cron-min-interval-minutes'].map((name) => [
    name,
    { type: 'string' as const },
  ]),
);
const LIMITS_USAGE =
  '[--web-space-mb N] [--traffic-mb N] [--sites N] [--mailboxes N] [--mailbox-mb N] [--aliases N] ' +
  '[--ftp-accounts N] [--databases N] [--database-space-mb N] [--backup-mb N] [--cron-tasks N] [--ssh-keys N] [--spam-senders N] [--stats-log-mb N] (N or "unlimited") ' +
  '[--php-versions 8.2,8.3|all] [--php-workers N] [--cron-min-interval-minutes N]';

export function planName(value: string, option = 'plan'): string {
  if (!PLAN_NAME.test(value))
    throw new CliError(`--${option} ${JSON.stringify(value)} must be a-z, 0-9 and inner hyphens (63 at most)`);
  return value;
}

/** The limits given on the command line; those not given stay undefined. */
function limitsGiven(values: Parameters<typeof v.optionString>[0]): Partial<PlanLimits> {
  const limits: Partial<PlanLimits> = {};
  for (const limit of NUMERIC_LIMITS) {
    const option = optionOf(limit);
    const value = v.optionString(values, option);
    if (value !== undefined) limits[limit] = value === 'unlimited' ? null : v.integer(value, option, 0, 100_000_000);
  }
  const versions = v.optionString(values, 'php-versions');
  if (versions !== undefined) {
    limits.phpVersions = versions === 'all' ? [] : versions.split(',').map((version) => version.trim());
    if (limits.phpVersions.some((version) => !/^\d+\.\d+$/.test(version)))
      throw new CliError('--php-versions must be a comma list of versions like 8.2, or "all"');
  }
  const workers = v.optionString(values, 'php-workers');
  if (workers !== undefined) limits.phpWorkers = v.integer(workers, 'php-workers', 1, 200);
  const interval = v.optionString(values, 'cron-min-interval-minutes');
  if (interval !== undefined)
    limits.cronMinIntervalMinutes = v.integer(interval, 'cron-min-interval-minutes', 1, MAX_CRON_INTERVAL_MINUTES);
  return limits;
}

/** The plans, with hosting composed for a downgrade's sizes and the pools a change renders again. */
async function withPlans<T>(ctx: CommandContext, work: (plans: PlansService) => Promise<T>): Promise<T> {
  const { runtime, config, now } = ctx;
  const hosting = createHostingService(runtime.db, config, new BrandService(runtime.db), loadSecretKey(config), now);
  try {
    return await work(createPlansService(runtime.db, config, now, hosting));
  } finally {
    await hosting.close();
  }
}

const shown = (value: number | null) => (value === null ? 'unlimited' : String(value));

function describe(plan: Plan): string {
  return [
    `${plan.name}: ${plan.services} services`,
    `  web space ${shown(plan.webSpaceMb)} MB, traffic ${shown(plan.trafficMb)} MB/month, sites ${shown(plan.sites)}`,
    `  mailboxes ${shown(plan.mailboxes)} (largest ${shown(plan.mailboxMb)} MB), aliases ${shown(plan.aliases)}, FTP accounts ${shown(plan.ftpAccounts)}`,
    `  databases ${shown(plan.databases)} (${shown(plan.databaseSpaceMb)} MB), backups ${shown(plan.backupMb)} MB`,
    `  PHP ${plan.phpVersions.length === 0 ? 'every version' : plan.phpVersions.join(', ')}, ${plan.phpWorkers} workers`,
    `  scheduled tasks ${shown(plan.cronTasks)}, every ${plan.cronMinIntervalMinutes} min at most`,
    `  SSH keys ${shown(plan.sshKeys)}, statistics logs ${shown(plan.statsLogMb)} MB, spam list entries ${shown(plan.spamSenders)}`,
  ].join('\n');
}

const list = defineCommand({
  name: 'list',
  summary: 'The plans, their limits and how many services are on each',
  usage: '',
  parse: () => ({}),
  async run(ctx) {
    const plans = await withPlans(ctx, (service) => service.list());
    return {
      json: { plans },
      text: table(
        ['NAME', 'SERVICES', 'WEB MB', 'SITES', 'MAILBOXES', 'DATABASES', 'PHP WORKERS'],
        plans.map((plan) => [
          plan.name,
          String(plan.services),
          shown(plan.webSpaceMb),
          shown(plan.sites),
          shown(plan.mailboxes),
          shown(plan.databases),
          String(plan.phpWorkers),
        ]),
      ),
    };
  },
});

const add = defineCommand({
  name: 'add',
  summary: 'Add a plan; a limit not given is unlimited (PHP workers: 5, PHP versions: all)',
  usage: `NAME ${LIMITS_USAGE}`,
  positionals: ['NAME'],
  options: LIMIT_OPTIONS,
  parse: ({ positionals, values }) => ({ name: planName(String(positionals[0]), 'NAME'), limits: limitsGiven(values) }),
  async run(ctx, input: { name: string; limits: Partial<PlanLimits> }) {
    const plan = await withPlans(ctx, (plans) => plans.create(input.name, { ...UNLIMITED_PLAN, ...input.limits }));
    return { json: { plan }, text: `Plan added.\n${describe(plan)}` };
  },
});

const set = defineCommand({
  name: 'set',
  summary:
    'Change a plan’s limits, at once for every service on it; refused, naming what exceeds, when a service holds more',
  usage: `NAME ${LIMITS_USAGE}`,
  positionals: ['NAME'],
  options: LIMIT_OPTIONS,
  parse: ({ positionals, values }) => {
    const limits = limitsGiven(values);
    if (Object.keys(limits).length === 0) throw new CliError('Give at least one limit to change');
    return { name: planName(String(positionals[0]), 'NAME'), limits };
  },
  async run(ctx, input: { name: string; limits: Partial<PlanLimits> }) {
    const plan = await withPlans(ctx, (plans) => plans.update(input.name, input.limits));
    return { json: { plan }, text: `Plan changed.\n${describe(plan)}` };
  },
});

const remove = defineCommand({
  name: 'remove',
  summary: 'Remove a plan no service is on',
  usage: 'NAME',
  positionals: ['NAME'],
  parse: ({ positionals }) => ({ name: planName(String(positionals[0]), 'NAME') }),
  async run(ctx, input: { name: string }) {
    await withPlans(ctx, (plans) => plans.remove(input.name));
    return { json: { removed: input.name }, text: `Plan ${input.name} removed.` };
  },
});

const assign = defineCommand({
  name: 'assign',
  summary: 'Put a hosting service on another plan; refused, naming what exceeds, when it holds more than it allows',
  usage: 'SERVICE PLAN',
  positionals: ['SERVICE', 'PLAN'],
  parse: ({ positionals }) => ({
    reference: v.reference(String(positionals[0]), 'SERVICE'),
    plan: planName(String(positionals[1]), 'PLAN'),
  }),
  async run(ctx, input: { reference: string; plan: string }) {
    const service = await ctx.admin.providerView(input.reference);
    if (!service) throw new CliError(`No hosting service '${input.reference}'`);
    const plan = await withPlans(ctx, (plans) => plans.assign(service, input.plan));
    return { json: { service: input.reference, plan }, text: `${input.reference} is on plan ${plan.name}.` };
  },
});

export const planCommands: CommandGroup = {
  name: 'plan',
  summary: 'Plans: named limits each hosting service is held to',
  commands: [list, add, set, remove, assign],
};
