import { PERMISSION_KEYS, type PermissionKey, type PermissionLevel } from '@panel247/contract/constants';
import { allKeys } from '../../modules/admin/admin.service.ts';
import { CliError, type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';
import * as v from '../validate.ts';

interface Target {
  domain: string;
  user: string;
  reference: string;
}

function target(values: Parameters<typeof v.requiredString>[0]): Target {
  return {
    domain: v.domainName(v.requiredString(values, 'domain')),
    user: v.username(v.requiredString(values, 'user')),
    reference: v.reference(v.requiredString(values, 'reference')),
  };
}

const targetOptions = {
  domain: { type: 'string' },
  user: { type: 'string' },
  reference: { type: 'string' },
} as const;

/** `all` when every key has this level, else the keys that have it. */
function keysAt(levels: Record<PermissionKey, PermissionLevel>, level: PermissionLevel): string {
  const keys = PERMISSION_KEYS.filter((key) => levels[key] === level);
  if (keys.length === PERMISSION_KEYS.length) return 'all';
  return keys.join(',');
}

const list = defineCommand({
  name: 'list',
  summary: 'The levels a user has on each resource (keys not listed are disabled)',
  usage: '--domain D --user U',
  options: { domain: { type: 'string' }, user: { type: 'string' } },
  parse({ values }) {
    return {
      domain: v.domainName(v.requiredString(values, 'domain')),
      user: v.username(v.requiredString(values, 'user')),
    };
  },
  async run({ admin }, input: { domain: string; user: string }) {
    const grants = (await admin.permissionsOf(input.domain, input.user)).map((row) => ({
      reference: row.reference,
      resourceId: row.resource_id,
      levels: Object.fromEntries(PERMISSION_KEYS.map((key) => [key, row[key]])) as Record<
        PermissionKey,
        PermissionLevel
      >,
    }));
    return {
      json: grants,
      text: table(
        ['REFERENCE', 'WRITE', 'READ'],
        grants.map((g) => [g.reference, keysAt(g.levels, 'write'), keysAt(g.levels, 'read')]),
      ),
    };
  },
});

const set = defineCommand({
  name: 'set',
  summary: 'Set levels of a user on a resource; --key changes only the keys given (new grants start disabled)',
  usage: '--domain D --user U --reference R (--all write|read|disabled | --key KEY=LEVEL ...)',
  options: { ...targetOptions, all: { type: 'string' }, key: { type: 'string', multiple: true } },
  parse({ values }) {
    const all = v.optionString(values, 'all');
    const keys = v.optionStrings(values, 'key');
    if (all !== undefined && keys.length > 0) throw new CliError('Give either --all or --key, not both');
    if (all === undefined && keys.length === 0) throw new CliError('Give --all LEVEL or at least one --key KEY=LEVEL');
    const levels = all !== undefined ? allKeys(v.level(all)) : v.keyLevels(keys);
    return { ...target(values), levels };
  },
  async run({ admin }, input: Target & { levels: Partial<Record<PermissionKey, PermissionLevel>> }) {
    await admin.grant(input.domain, input.user, input.reference, input.levels);
    return {
      json: { ...input },
      text: `Permissions of '${input.user}' on '${input.reference}' set (${Object.keys(input.levels).length} keys)`,
    };
  },
});

const revoke = defineCommand({
  name: 'revoke',
  summary: 'Take away every permission of a user on a resource',
  usage: '--domain D --user U --reference R',
  options: targetOptions,
  parse: ({ values }) => target(values),
  async run({ admin }, input: Target) {
    await admin.revoke(input.domain, input.user, input.reference);
    return {
      json: { ...input, revoked: true },
      text: `Permissions of '${input.user}' on '${input.reference}' revoked`,
    };
  },
});

export const permissionCommands: CommandGroup = {
  name: 'permission',
  summary: 'What each user may see (read) and change (write) on each resource',
  commands: [list, set, revoke],
};
