import { type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';
import * as v from '../validate.ts';

const list = defineCommand({
  name: 'list',
  summary: 'List the customer accounts',
  usage: '',
  parse: () => ({}),
  async run({ admin }) {
    const accounts = (await admin.listAccounts()).map((row) => ({
      id: row.id,
      domain: row.domain_name,
      name: row.name,
      brand: row.brand,
    }));
    return {
      json: accounts,
      text: table(
        ['ID', 'DOMAIN', 'NAME', 'BRAND'],
        accounts.map((a) => [a.id, a.domain, a.name, a.brand]),
      ),
    };
  },
});

const add = defineCommand({
  name: 'add',
  summary: 'Create a customer account under a brand (an existing domain is left unchanged)',
  usage: '--domain D --brand SLUG [--name N]',
  options: { domain: { type: 'string' }, brand: { type: 'string' }, name: { type: 'string' } },
  parse({ values }) {
    const name = v.optionString(values, 'name');
    return {
      domain: v.domainName(v.requiredString(values, 'domain')),
      brand: v.slug(v.requiredString(values, 'brand'), 'brand'),
      name: name === undefined ? '' : v.line(name, 'name'),
    };
  },
  async run({ admin }, input: { domain: string; brand: string; name: string }) {
    const id = await admin.ensureAccount(input.domain, input.brand, input.name);
    return {
      json: { id, domain: input.domain, brand: input.brand },
      text: `Account '${input.domain}' (id ${id}) ready`,
    };
  },
});

export const accountCommands: CommandGroup = {
  name: 'account',
  summary: 'Customer accounts (one domain name each, under a brand)',
  commands: [list, add],
};
