import { loadConfig } from '../../config.ts';
import { DEMO } from '../../seed/demo-seed.ts';
import { realDrivers, SCALE_DEFAULTS, SCALE_PASSWORD, type ScaleCounts, seedScale } from '../../seed/scale-seed.ts';
import { CliError, type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';
import * as v from '../validate.ts';

type ScaleInput = Omit<ScaleCounts, 'databases'> & { databases?: number };

/** The bounds of each count option (the defaults are SCALE_DEFAULTS). */
const BOUNDS: Record<keyof typeof SCALE_DEFAULTS, [min: number, max: number]> = {
  domains: [1, 100_000],
  records: [0, 100_000],
  mailboxes: [0, 100_000],
  aliases: [0, 100_000],
  sites: [0, 10_000],
  ftp: [0, 10_000],
};

const scale = defineCommand({
  name: 'scale',
  summary:
    "The scale data set on top of the demo: N resources (domain, service, mail) granted to the demo's admin, and " +
    'in the first (scale00001.test) a zone of N records, mailboxes, aliases, sites, FTP accounts and the ' +
    "plan's databases, written in bulk. Embedded drivers only. Defaults: a 10,000-domain reseller",
  usage: '[--domains N] [--records N] [--mailboxes N] [--aliases N] [--sites N] [--ftp N] [--databases N]',
  options: {
    domains: { type: 'string' },
    records: { type: 'string' },
    mailboxes: { type: 'string' },
    aliases: { type: 'string' },
    sites: { type: 'string' },
    ftp: { type: 'string' },
    databases: { type: 'string' },
  },
  // The set is granted to the demo's admin, so the demo comes first.
  seedDemo: true,
  parse({ values, io }): ScaleInput {
    // Refused before the database is opened: the demo seed would already reach the real daemons.
    const real = realDrivers(loadConfig(io.env));
    if (real.length > 0) {
      throw new CliError(
        `demo scale writes its rows in bulk for the embedded drivers only, and this panel drives ${real.join(', ')}. ` +
          'Build the scale set in a panel of its own (a fresh PANEL_DATA_DIR with the default drivers).',
      );
    }
    const counts = { ...SCALE_DEFAULTS };
    for (const [key, [min, max]] of Object.entries(BOUNDS) as [keyof typeof BOUNDS, [number, number]][]) {
      const value = v.optionString(values, key);
      if (value !== undefined) counts[key] = v.integer(value, key, min, max);
    }
    const databases = v.optionString(values, 'databases');
    return { ...counts, ...(databases === undefined ? {} : { databases: v.integer(databases, 'databases', 0, 1000) }) };
  },
  async run({ admin, runtime, config, now }, input: ScaleInput) {
    const counts: ScaleCounts = { ...input, databases: input.databases ?? config.databases.maxPerService };
    const result = await seedScale({ admin, db: runtime.db, config, dnsDriver: runtime.dnsDriver, now }, counts);
    const big = result.bigService;
    return {
      json: {
        ...result,
        parts: result.parts.map((part) => ({ ...part, seconds: Math.round(part.seconds * 1000) / 1000 })),
        seconds: Math.round(result.seconds * 1000) / 1000,
        password: SCALE_PASSWORD,
      },
      text: [
        table(
          ['PART', 'CREATED', 'SECONDS'],
          result.parts.map((part) => [part.part, part.created, part.seconds.toFixed(2)]),
        ),
        `Scale data set ready in ${result.seconds.toFixed(1)} s (embedded drivers; parts already there were skipped).`,
        `  ${DEMO.admin.username} / ${DEMO.admin.password} on ${DEMO.domain} holds them; the big service is ${big.reference} (id ${big.id}).`,
        `  Mailboxes, FTP accounts and databases share the password ${SCALE_PASSWORD}.`,
      ].join('\n'),
    };
  },
});

export const demoCommands: CommandGroup = {
  name: 'demo',
  summary: 'Demo data sets beyond the demo itself',
  commands: [scale],
};
