import { randomBytes } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { isHostName } from '@panel247/contract/dns-rules';
import { CHANNEL_URL_PATTERN } from '../../modules/nodes/node-rules.ts';
import {
  type NewNode,
  NODE_ROLES,
  type NodeRole,
  NodesService,
  type NodeView,
} from '../../modules/nodes/nodes.service.ts';
import { CliError, type CommandContext, type CommandGroup, defineCommand } from '../command.ts';
import { table, timestamp } from '../output.ts';
import { integer, optionString, requiredString } from '../validate.ts';
import { moveCommand } from './node-move.command.ts';
import { nodeName } from './node-options.ts';
import { recoverCommand } from './node-recover.command.ts';

function roles(value: string): NodeRole[] {
  const list = value.split(',').map((role) => role.trim());
  const unknown = list.filter((role) => !(NODE_ROLES as readonly string[]).includes(role));
  if (list.length === 0 || unknown.length > 0 || new Set(list).size !== list.length)
    throw new CliError(`--roles must be a comma list of ${NODE_ROLES.join(', ')}, each once`);
  return list as NodeRole[];
}

const nodes = ({ runtime, now }: CommandContext) => new NodesService(runtime.db, now);

function seen(node: NodeView): string {
  if (node.lastSeenAt === null) return 'never';
  return `${timestamp(node.lastSeenAt) ?? ''}${node.up ? '' : ' (DOWN)'}`;
}

const add = defineCommand({
  name: 'add',
  summary:
    "Add a server with its roles (web, mail, databases, dns), capacity (services it takes), the host name customers connect to and its agent's node channel; prints its agent's key once (PANEL_NODE_KEY)",
  usage:
    'NAME --roles web,mail --capacity N --host HOST --url http://ADDRESS:PORT [--ipv4 A.B.C.D] [--ipv6 X::Y] ' +
    '(--ipv4 is needed for the web and mail roles)',
  positionals: ['NAME'],
  options: {
    roles: { type: 'string' },
    capacity: { type: 'string' },
    host: { type: 'string' },
    url: { type: 'string' },
    ipv4: { type: 'string' },
    ipv6: { type: 'string' },
  },
  parse: ({ positionals, values }): NewNode => {
    const ipv4 = optionString(values, 'ipv4') ?? '';
    if (ipv4 !== '' && !isIPv4(ipv4)) throw new CliError(`--ipv4 '${ipv4}' is not an IPv4 address`);
    const ipv6 = (optionString(values, 'ipv6') ?? '').toLowerCase();
    if (ipv6 !== '' && !isIPv6(ipv6)) throw new CliError(`--ipv6 '${ipv6}' is not an IPv6 address`);
    const host = requiredString(values, 'host').toLowerCase();
    if (!isHostName(host)) throw new CliError(`--host '${host}' is not a host name`);
    const channelUrl = requiredString(values, 'url');
    if (!CHANNEL_URL_PATTERN.test(channelUrl))
      throw new CliError('--url must be http://address:port (the agent’s node channel)');
    const given = roles(requiredString(values, 'roles'));
    // the zones of its services point their web and mail names at it
    if (ipv4 === '' && (given.includes('web') || given.includes('mail')))
      throw new CliError('--ipv4 is needed for a server with the web or mail role (its services’ zones point at it)');
    return {
      name: nodeName(String(positionals[0])),
      roles: given,
      capacity: integer(requiredString(values, 'capacity'), 'capacity', 1, 1_000_000),
      host,
      channelUrl,
      ipv4,
      ipv6,
    };
  },
  async run(ctx, input: NewNode) {
    // its agent would share the work log, which only PostgreSQL's engine lets several processes do
    if (ctx.runtime.kind !== 'postgres')
      throw new CliError('Servers need the panel on PostgreSQL (PANEL_DATABASE_URL): on SQLite it is its only machine');
    const { node, key } = await nodes(ctx).add(input);
    // its own database role (deploy/postgresql/node-role.sql), with a password made here once
    const role = { name: `panel247_node_${node.name}`, password: randomBytes(24).toString('base64url') };
    return {
      json: { node, key, databaseRole: role },
      text: [
        `Server ${node.name} added (${node.roles.join(', ')}).`,
        'Give it its own database role, as a superuser on this database:',
        `  sudo -u postgres psql -X -d DATABASE -v node=${node.name} -v password='${role.password}' -f deploy/postgresql/node-role.sql`,
        'On the server, set these for its agent (the key and password are not shown again):',
        `  PANEL_NODE=${node.name}`,
        `  PANEL_NODE_KEY=${key}`,
        `  PANEL_AGENT_URL=${node.channelUrl}`,
        `  PANEL_DATABASE_URL=postgres://${role.name}:${role.password}@THIS-DATABASE-HOST:5432/DATABASE`,
      ].join('\n'),
    };
  },
});

const list = defineCommand({
  name: 'list',
  summary: 'The servers: roles, capacity, state, when each agent was last heard from; exit 1 while one is down',
  usage: '',
  parse: () => ({}),
  async run(ctx) {
    const all = await nodes(ctx).list();
    return {
      json: { nodes: all },
      text:
        all.length === 0
          ? 'No servers added: the panel is its own machine’s server.'
          : table(
              ['NAME', 'ROLES', 'SERVICES', 'HOST', 'STATE', 'LAST SEEN'],
              all.map((node) => [
                node.name,
                node.roles.join(','),
                `${node.services}/${node.capacity}`,
                node.host,
                node.state,
                seen(node),
              ]),
            ),
      exitCode: all.some((node) => !node.up) ? 1 : 0,
    };
  },
});

const stateCommand = (name: 'drain' | 'undrain', state: 'draining' | 'active', summary: string) =>
  defineCommand({
    name,
    summary,
    usage: 'NAME',
    positionals: ['NAME'],
    parse: ({ positionals }) => ({ name: nodeName(String(positionals[0])) }),
    async run(ctx, input: { name: string }) {
      await nodes(ctx).setState(input.name, state);
      return { json: { name: input.name, state }, text: `Server ${input.name}: ${state}.` };
    },
  });

const remove = defineCommand({
  name: 'remove',
  summary: 'Remove a server from the panel (its agent is refused from then on)',
  usage: 'NAME',
  positionals: ['NAME'],
  parse: ({ positionals }) => ({ name: nodeName(String(positionals[0])) }),
  async run(ctx, input: { name: string }) {
    await nodes(ctx).remove(input.name);
    return { json: { removed: input.name }, text: `Server ${input.name} removed.` };
  },
});

export const nodeCommands: CommandGroup = {
  name: 'node',
  summary: 'The provider’s servers: add, list, drain, undrain, remove',
  commands: [
    add,
    list,
    stateCommand('drain', 'draining', 'Take no new service on a server (those it has stay until moved)'),
    stateCommand('undrain', 'active', 'Let a drained server take new services again'),
    remove,
    moveCommand,
    recoverCommand,
  ],
  defaultCommand: 'list',
};
