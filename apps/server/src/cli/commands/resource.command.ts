import type { PermissionKey, PermissionLevel } from '@panel247/contract/constants';
import { allKeys, type ResourceInput } from '../../modules/admin/admin.service.ts';
import { PlacementService } from '../../modules/nodes/placement.service.ts';
import { CliError, type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';
import * as v from '../validate.ts';
import { placementPins } from './node-options.ts';
import { planName } from './plan.command.ts';

/** References of the bulk mode: `<prefix>0001.test`, `<prefix>0002.test`, … */
export function bulkReferences(prefix: string, count: number): string[] {
  const width = Math.max(4, String(count).length);
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(width, '0')}.test`);
}

type Parts = Omit<ResourceInput, 'reference'>;

interface SingleInput {
  mode: 'single';
  domain: string;
  reference: string;
  parts: Parts;
  grantUser?: string;
}

interface BulkInput {
  mode: 'bulk';
  domain: string;
  references: string[];
  parts: Parts;
  grantUser: string;
}

const list = defineCommand({
  name: 'list',
  summary: 'List the resources (domains, hosting services, mail services) of an account',
  usage: '--domain D',
  options: { domain: { type: 'string' } },
  parse({ values }) {
    return { domain: v.domainName(v.requiredString(values, 'domain')) };
  },
  async run({ admin }, input: { domain: string }) {
    await admin.accountId(input.domain);
    const resources = (await admin.listResources(input.domain)).map((row) => ({
      id: row.id,
      reference: row.reference,
      hasDomain: row.has_domain === 1,
      hasService: row.has_service === 1,
      hasMail: row.has_mail === 1,
      isRedirAndParking: row.is_redir_and_parking === 1,
    }));
    const yes = (value: boolean) => (value ? 'yes' : '');
    return {
      json: resources,
      text: table(
        ['ID', 'REFERENCE', 'DOMAIN', 'SERVICE', 'MAIL', 'PARKING'],
        resources.map((r) => [
          r.id,
          r.reference,
          yes(r.hasDomain),
          yes(r.hasService),
          yes(r.hasMail),
          yes(r.isRedirAndParking),
        ]),
      ),
    };
  },
});

const add = defineCommand({
  name: 'add',
  summary:
    'Add a resource to an account; --grant-user gives that user write on every key. Bulk mode: --count N ' +
    '--prefix P creates P0001.test… granted write to --grant-user (for pagination tests and benchmarks)',
  usage:
    '--domain D (--reference R | --count N --prefix P --grant-user U) [--grant-user U] [--domain-part] ' +
    '[--service [--plan PLAN] [--node web=SERVER,mail=SERVER,databases=SERVER]] [--mail] [--parking] ' +
    '[--domain-expires YYYY-MM-DD] [--service-expires …] [--mail-expires …]',
  options: {
    domain: { type: 'string' },
    reference: { type: 'string' },
    'domain-part': { type: 'boolean' },
    service: { type: 'boolean' },
    mail: { type: 'boolean' },
    parking: { type: 'boolean' },
    'domain-expires': { type: 'string' },
    'service-expires': { type: 'string' },
    'mail-expires': { type: 'string' },
    count: { type: 'string' },
    prefix: { type: 'string' },
    'grant-user': { type: 'string' },
    node: { type: 'string' },
    plan: { type: 'string' },
  },
  parse({ values }): SingleInput | BulkInput {
    const domain = v.domainName(v.requiredString(values, 'domain'));
    const expires = (name: string) => {
      const value = v.optionString(values, name);
      return value === undefined ? null : v.date(value, name);
    };
    const parts: Parts = {
      hasDomain: v.flag(values, 'domain-part'),
      hasService: v.flag(values, 'service'),
      hasMail: v.flag(values, 'mail'),
      isRedirAndParking: v.flag(values, 'parking'),
      domainExpireTs: expires('domain-expires'),
      serviceExpireTs: expires('service-expires'),
      mailExpireTs: expires('mail-expires'),
    };
    if (!parts.hasDomain && !parts.hasService && !parts.hasMail) {
      throw new CliError('Give at least one part: --domain-part, --service or --mail');
    }
    if (parts.isRedirAndParking && !parts.hasService) throw new CliError('--parking needs --service');
    const pins = v.optionString(values, 'node');
    if (pins !== undefined) {
      if (!parts.hasService) throw new CliError('--node needs --service');
      parts.placement = placementPins(pins);
    }
    const plan = v.optionString(values, 'plan');
    if (plan !== undefined) {
      if (!parts.hasService) throw new CliError('--plan needs --service');
      parts.plan = planName(plan);
    }
    const grantUserValue = v.optionString(values, 'grant-user');
    const grantUser = grantUserValue === undefined ? undefined : v.username(grantUserValue, 'grant-user');
    const count = v.optionString(values, 'count');
    if (count === undefined) {
      if (values.prefix !== undefined) throw new CliError('--prefix goes with --count');
      return {
        mode: 'single',
        domain,
        reference: v.reference(v.requiredString(values, 'reference')),
        parts,
        grantUser,
      };
    }
    if (values.reference !== undefined) throw new CliError('Give either --reference or --count, not both');
    if (pins !== undefined) throw new CliError('--node goes with --reference (one service at a time)');
    if (!grantUser) throw new CliError('--count needs --grant-user U (the user who gets write on every resource)');
    const prefix = v.requiredString(values, 'prefix');
    if (!/^[a-z0-9][a-z0-9-]{0,49}$/.test(prefix)) {
      throw new CliError(
        `--prefix: ${JSON.stringify(prefix)} must be a-z, 0-9 and hyphens (up to 50, no leading hyphen)`,
      );
    }
    return {
      mode: 'bulk',
      domain,
      references: bulkReferences(prefix, v.integer(count, 'count', 1, 100_000)),
      parts,
      grantUser,
    };
  },
  async run({ admin, runtime, now }, input: SingleInput | BulkInput) {
    const writeAll: Partial<Record<PermissionKey, PermissionLevel>> = allKeys('write');
    if (input.mode === 'bulk') {
      const resources = input.references.map((reference) => ({ reference, ...input.parts }));
      const created = await admin.ensureResourcesBulk(input.domain, input.grantUser, resources, writeAll);
      const first = input.references[0];
      const last = input.references[input.references.length - 1];
      return {
        json: { created, skipped: input.references.length - created, first, last, grantUser: input.grantUser },
        text: `${created} resources created (${first} … ${last}), ${input.references.length - created} already existed; write granted to '${input.grantUser}'`,
      };
    }
    if (input.grantUser) await admin.userId(input.domain, input.grantUser);
    const id = await admin.ensureResource(input.domain, { reference: input.reference, ...input.parts });
    if (input.grantUser) await admin.grant(input.domain, input.grantUser, input.reference, writeAll);
    const granted = input.grantUser ? `; write granted to '${input.grantUser}'` : '';
    const placement = input.parts.hasService ? await new PlacementService(runtime.db, now).placementOf(id) : {};
    const where = Object.entries(placement).map(([role, node]) => `${role} on ${node}`);
    return {
      json: { id, reference: input.reference, domain: input.domain, grantUser: input.grantUser ?? null, placement },
      text: `Resource '${input.reference}' (id ${id}) on '${input.domain}' ready${granted}${where.length > 0 ? `; ${where.join(', ')}` : ''}`,
    };
  },
});

export const resourceCommands: CommandGroup = {
  name: 'resource',
  summary: 'Resources of an account: domains, hosting and mail services',
  commands: [list, add],
};
