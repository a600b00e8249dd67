import { SecretBox } from '../../crypto/secret-box.ts';
import type { EppPool } from '../../drivers/registry/epp/epp-pool.ts';
import { eppRegistryHandles } from '../../drivers/registry/epp/epp-registries.ts';
import { createDomainServices, type DomainServices } from '../../modules/domain/create-domain-services.ts';
import { RegistriesService, type RegistryConfig } from '../../modules/registries/registries.service.ts';
import { loadSecretKey } from '../../secret-key.ts';
import { CliError, type CommandContext, type CommandGroup, defineCommand } from '../command.ts';
import { table, timestamp } from '../output.ts';
import * as v from '../validate.ts';

const registries = ({ runtime, config, now }: CommandContext) =>
  new RegistriesService(runtime.db, new SecretBox(loadSecretKey(config), 'registry-password'), now);

function registryName(value: string): string {
  if (!/^[a-z0-9]([a-z0-9-]{0,62})$/.test(value))
    throw new CliError(`NAME ${JSON.stringify(value)} must be a-z, 0-9 and hyphens (64 at most)`);
  return value;
}

/** TLDs as labels: `es`, `com.es`. */
function tlds(value: string): string[] {
  const list = value
    .toLowerCase()
    .split(',')
    .map((tld) => tld.trim().replace(/^\.+|\.+$/g, ''))
    .filter(Boolean);
  if (list.length === 0 || !list.every((tld) => /^([a-z0-9-]{1,63}\.)*[a-z0-9-]{1,63}$/.test(tld)))
    throw new CliError('--tld: one or more TLDs separated by commas (es,com.es)');
  return list;
}

/** An EPP password (RFC 5730 pwType: 6 to 16 characters) from one line of standard input. */
async function eppPassword(io: { readStdin(): Promise<string> }): Promise<string> {
  const value = (await io.readStdin()).replace(/\r?\n$/, '');
  if (value.length < 6 || value.length > 16 || /\s/.test(value))
    throw new CliError('The registry password must be 6 to 16 characters without spaces (RFC 5730)');
  return value;
}

const add = defineCommand({
  name: 'add',
  summary:
    'Add a registry for PANEL_REGISTRY_DRIVER=epp: its TLDs, where it listens, the client certificate, the login (password from stdin, kept sealed)',
  usage:
    'NAME --tld T[,T] --host H [--port 700] --cert FILE --key FILE [--ca FILE] --client-id ID --password-stdin [--host-attributes] [--sessions 2] [--rate 5]',
  positionals: ['NAME'],
  options: {
    tld: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    cert: { type: 'string' },
    key: { type: 'string' },
    ca: { type: 'string' },
    'client-id': { type: 'string' },
    'password-stdin': { type: 'boolean' },
    'host-attributes': { type: 'boolean' },
    sessions: { type: 'string' },
    rate: { type: 'string' },
  },
  async parse({ positionals, values, io }) {
    if (values['password-stdin'] !== true)
      throw new CliError('The login password comes from standard input: --password-stdin');
    const clientId = v.requiredString(values, 'client-id');
    if (!/^\S{3,16}$/.test(clientId)) throw new CliError('--client-id: 3 to 16 characters (RFC 5730)');
    const config: RegistryConfig = {
      name: registryName(String(positionals[0])),
      tlds: tlds(v.requiredString(values, 'tld')),
      host: v.domainName(v.requiredString(values, 'host'), 'host'),
      port: v.integer(v.optionString(values, 'port') ?? '700', 'port', 1, 65_535),
      certFile: v.line(v.requiredString(values, 'cert'), 'cert', 1024),
      keyFile: v.line(v.requiredString(values, 'key'), 'key', 1024),
      caFile: v.optionString(values, 'ca') ? v.line(v.requiredString(values, 'ca'), 'ca', 1024) : '',
      clientId,
      hostObjects: values['host-attributes'] !== true,
      sessions: v.integer(v.optionString(values, 'sessions') ?? '2', 'sessions', 1, 20),
      ratePerSecond: v.integer(v.optionString(values, 'rate') ?? '5', 'rate', 1, 1000),
    };
    return { config, password: await eppPassword(io) };
  },
  async run(ctx, input: { config: RegistryConfig; password: string }) {
    await registries(ctx).add(input.config, input.password);
    return { json: input.config, text: `Registry ${input.config.name} added for ${input.config.tlds.join(', ')}` };
  },
});

const list = defineCommand({
  name: 'list',
  summary: 'The registries: TLDs, where they listen, host objects or attributes, what their greeting announced',
  usage: '',
  parse: () => ({}),
  async run(ctx) {
    const all = await registries(ctx).list();
    return {
      json: { registries: all },
      text:
        all.length === 0
          ? 'No registries.'
          : table(
              ['NAME', 'TLDS', 'HOST', 'CLIENT', 'HOSTS', 'SESSIONS', 'RATE/S', 'EXTENSIONS'],
              all.map((r) => [
                r.name,
                r.tlds.join(','),
                `${r.host}:${r.port}`,
                r.clientId,
                r.hostObjects ? 'objects' : 'attributes',
                r.sessions,
                r.ratePerSecond,
                r.extensions.join(' '),
              ]),
            ),
    };
  },
});

/** Opens a session with the registry as configured (the panel's own way in), to check it or change its password. */
async function withPool<T>(ctx: CommandContext, name: string, use: (pool: EppPool) => Promise<T>) {
  const login = (await registries(ctx).logins()).find((registry) => registry.name === name);
  if (!login) throw new CliError(`No registry '${name}'`);
  const [handle] = await eppRegistryHandles([{ ...login, sessions: 1 }], { keepAliveMs: 60_000 });
  if (!handle) throw new CliError(`No registry '${name}'`);
  try {
    return await use(handle.pool);
  } finally {
    await handle.pool.close();
  }
}

const check = defineCommand({
  name: 'check',
  summary: 'Log in to a registry and read its greeting: the objects and extensions it announces (kept for `list`)',
  usage: 'NAME',
  positionals: ['NAME'],
  parse: ({ positionals }) => ({ name: registryName(String(positionals[0])) }),
  async run(ctx, input: { name: string }) {
    const greeting = await withPool(ctx, input.name, (pool) => pool.hello());
    await registries(ctx).setExtensions(input.name, greeting?.extensions ?? []);
    return {
      json: greeting,
      text: `${input.name}: ${greeting?.serverId}\nobjects: ${greeting?.objects.join(' ')}\nextensions: ${greeting?.extensions.join(' ')}`,
    };
  },
});

const password = defineCommand({
  name: 'password',
  summary:
    "Change the registrar's password at the registry (RFC 5730 login newPW; new password from stdin), then keep it sealed",
  usage: 'NAME --new-password-stdin',
  positionals: ['NAME'],
  options: { 'new-password-stdin': { type: 'boolean' } },
  async parse({ positionals, values, io }) {
    if (values['new-password-stdin'] !== true)
      throw new CliError('The new password comes from standard input: --new-password-stdin');
    return { name: registryName(String(positionals[0])), password: await eppPassword(io) };
  },
  async run(ctx, input: { name: string; password: string }) {
    await withPool(ctx, input.name, (pool) => pool.changePassword(input.password));
    await registries(ctx).setPassword(input.name, input.password);
    return {
      json: { name: input.name, passwordChanged: true },
      text: `Password of ${input.name} changed at the registry`,
    };
  },
});

const remove = defineCommand({
  name: 'remove',
  summary: 'Remove a registry (its TLDs then have none)',
  usage: 'NAME',
  positionals: ['NAME'],
  parse: ({ positionals }) => ({ name: registryName(String(positionals[0])) }),
  async run(ctx, input: { name: string }) {
    await registries(ctx).remove(input.name);
    return { json: { name: input.name, removed: true }, text: `Registry ${input.name} removed` };
  },
});

/** The domain area as configured, its registry sessions ended once `use` is done. */
async function withDomainArea<T>(ctx: CommandContext, use: (domains: DomainServices) => Promise<T>): Promise<T> {
  const { runtime, config, now } = ctx;
  const { domains } = createDomainServices(runtime.db, config, runtime.dnsDriver, loadSecretKey(config), now, {
    jobs: runtime.sender,
  });
  try {
    return await use(domains);
  } finally {
    await domains.close();
  }
}

const poll = defineCommand({
  name: 'poll',
  summary:
    "Read every registry's message queue now (the `registry.poll` round does it on a schedule): transfers away change their domain",
  usage: '',
  parse: () => ({}),
  async run(ctx) {
    return withDomainArea(ctx, async (domains) => {
      const taken = await domains.registryMessages.pollAll();
      const messages = taken > 0 ? await domains.registryMessages.recent(taken) : [];
      return {
        json: { taken, messages },
        text:
          taken === 0
            ? 'No messages.'
            : table(
                ['REGISTRY', 'ID', 'QUEUED', 'DOMAIN', 'TRANSFER', 'TEXT'],
                messages.map((m) => [
                  m.registry,
                  m.message_id,
                  timestamp(Number(m.queued_at)),
                  m.domain,
                  m.transfer_state ? `${m.transfer_state}${m.outgoing ? ' (away)' : ''}` : '',
                  m.text,
                ]),
              ),
      };
    });
  },
});

const sync = defineCommand({
  name: 'sync',
  summary:
    'Compare every domain with its registry (name servers, locks, privacy, DS, glue, auth code, expiry), report the drift and import it (not with --dry-run)',
  usage: '[--dry-run] [--concurrency 8]',
  options: { 'dry-run': { type: 'boolean' }, concurrency: { type: 'string' } },
  parse: ({ values }) => ({
    dryRun: values['dry-run'] === true,
    concurrency: v.integer(v.optionString(values, 'concurrency') ?? '8', 'concurrency', 1, 64),
  }),
  async run(ctx, input: { dryRun: boolean; concurrency: number }) {
    return withDomainArea(ctx, async (domains) => {
      if (!domains.registrySync.available)
        throw new CliError('Nothing to sync: the embedded registry is the panel database (PANEL_REGISTRY_DRIVER=epp)');
      const outcomes = await domains.registrySync.syncAll(input);
      const shown = outcomes.filter((o) => o.outcome !== 'same');
      const count = (outcome: string) => outcomes.filter((o) => o.outcome === outcome).length;
      const summary = `${outcomes.length} domains: ${count('same')} in step, ${count('drifted')} ${input.dryRun ? 'drifted (dry run: nothing imported)' : 'drifted (imported)'}, ${count('missing')} unknown to their registry, ${count('failed')} not read`;
      return {
        json: { dryRun: input.dryRun, outcomes: shown, checked: outcomes.length },
        text: `${
          shown.length === 0
            ? ''
            : `${table(
                ['DOMAIN', 'OUTCOME', 'FIELD', 'PANEL', 'REGISTRY'],
                shown.flatMap((o) =>
                  o.drifts.length === 0
                    ? [[o.domain, o.outcome, '', '', o.detail]]
                    : o.drifts.map((d) => [o.domain, o.outcome, d.field, d.panel, d.registry]),
                ),
              )}\n`
        }${summary}`,
        exitCode: count('failed') > 0 ? 1 : 0,
      };
    });
  },
});

export const registryCommands: CommandGroup = {
  name: 'registry',
  summary: 'The EPP registries of PANEL_REGISTRY_DRIVER=epp: add, list, check, password, remove, poll, sync',
  commands: [add, list, check, password, remove, poll, sync],
};
