import type { BrandInput } from '../../modules/admin/admin.service.ts';
import { CliError, type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';
import * as v from '../validate.ts';

const brandOptions = {
  company: { type: 'string' },
  color: { type: 'string' },
  logo: { type: 'string' },
  'logo-mini': { type: 'string' },
  language: { type: 'string' },
  'contact-email': { type: 'string' },
  'ssl-host': { type: 'string' },
  'webmail-host': { type: 'string' },
  'webftp-host': { type: 'string' },
  'phpmyadmin-host': { type: 'string' },
  'acme-email': { type: 'string' },
} as const;

/** A brand's own host for a service ('' clears it: the panel's default applies again). */
const brandHost = (value: string, option: string) => (value === '' ? '' : v.domainName(value, option));

/** The options `brand add` and `brand set` share, validated; absent ones stay undefined. */
function brandFields(values: Parameters<typeof v.optionString>[0]): Partial<BrandInput> {
  const read = <T>(name: string, check: (value: string, option: string) => T) => {
    const value = v.optionString(values, name);
    return value === undefined ? undefined : check(value, name);
  };
  return {
    company: read('company', (value, option) => v.line(value, option, 255)),
    color: read('color', v.color),
    logo: read('logo', (value, option) => v.urlOrPath(value, option)),
    logoMini: read('logo-mini', (value, option) => v.urlOrPath(value, option)),
    defaultLanguage: read('language', v.language),
    contactEmail: read('contact-email', v.email),
    sslHost: read('ssl-host', brandHost),
    webmailHost: read('webmail-host', brandHost),
    webftpHost: read('webftp-host', brandHost),
    phpmyadminHost: read('phpmyadmin-host', brandHost),
    // the brand's contact at the ACME CA for its customers' certificates ('' : the provider's)
    acmeEmail: read('acme-email', (value, option) => (value === '' ? '' : v.email(value, option))),
  };
}

function withoutUndefined<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;
}

const list = defineCommand({
  name: 'list',
  summary: 'List the brands',
  usage: '',
  parse: () => ({}),
  async run({ admin }) {
    const brands = (await admin.listBrands()).map((row) => ({
      id: row.id,
      slug: row.slug,
      company: row.company,
      color: row.color,
      logo: row.logo,
      logoMini: row.logo_mini,
      allowColorChange: row.allow_color_change === 1,
      defaultLanguage: row.default_language,
      channel: row.channel,
      contactEmail: row.contact_email,
      sslHost: row.ssl_host,
      webmailHost: row.webmail_host,
      webftpHost: row.webftp_host,
      phpmyadminHost: row.phpmyadmin_host,
      isDefault: row.is_default === 1,
      require2fa: row.require_2fa === 1,
    }));
    return {
      json: brands,
      text: table(
        ['ID', 'SLUG', 'COMPANY', 'COLOR', 'LANG', 'CONTACT', 'DEFAULT'],
        brands.map((b) => [
          b.id,
          b.slug,
          b.company,
          b.color,
          b.defaultLanguage,
          b.contactEmail,
          b.isDefault ? 'yes' : '',
        ]),
      ),
    };
  },
});

const add = defineCommand({
  name: 'add',
  summary: 'Create a brand (an existing slug is left unchanged: use `brand set`)',
  usage:
    '--slug S --company C [--color indigo] [--logo URL] [--logo-mini URL] [--language es] [--channel NAME] ' +
    '[--contact-email E] [--ssl-host H] [--webmail-host H] [--webftp-host H] [--phpmyadmin-host H] ' +
    '[--host h1 --host h2] [--default]',
  options: {
    ...brandOptions,
    slug: { type: 'string' },
    channel: { type: 'string' },
    host: { type: 'string', multiple: true },
    default: { type: 'boolean' },
  },
  parse({ values }) {
    const input: BrandInput = {
      ...withoutUndefined(brandFields(values)),
      slug: v.slug(v.requiredString(values, 'slug')),
      company: v.line(v.requiredString(values, 'company'), 'company'),
      isDefault: v.flag(values, 'default'),
      hosts: v.optionStrings(values, 'host').map((host) => v.domainName(host, 'host')),
    };
    const channelName = v.optionString(values, 'channel');
    if (channelName !== undefined) input.channel = v.channel(channelName);
    return input;
  },
  async run({ admin }, input: BrandInput) {
    const id = await admin.ensureBrand(input);
    // ensureBrand only raises this brand's flag; the default must be one brand.
    if (input.isDefault) await admin.setDefaultBrand(input.slug);
    return { json: { id, slug: input.slug }, text: `Brand '${input.slug}' (id ${id}) ready` };
  },
});

const set = defineCommand({
  name: 'set',
  summary: 'Change a brand',
  usage:
    'SLUG [--company C] [--color C] [--logo URL] [--logo-mini URL] [--language L] [--contact-email E] ' +
    "[--ssl-host H] [--webmail-host H] [--webftp-host H] [--phpmyadmin-host H] ('' clears a host) " +
    "[--acme-email E] ('' uses PANEL_ACME_EMAIL) [--allow-color-change true|false] [--require-2fa | --optional-2fa] [--default]",
  positionals: ['SLUG'],
  options: {
    ...brandOptions,
    'allow-color-change': { type: 'string' },
    'require-2fa': { type: 'boolean' },
    'optional-2fa': { type: 'boolean' },
    default: { type: 'boolean' },
  },
  parse({ values, positionals }) {
    const changes = withoutUndefined(brandFields(values));
    const allow = v.optionString(values, 'allow-color-change');
    if (allow !== undefined) changes.allowColorChange = v.boolean(allow, 'allow-color-change');
    const require2fa = v.flag(values, 'require-2fa');
    const optional2fa = v.flag(values, 'optional-2fa');
    if (require2fa && optional2fa) throw new CliError('Give --require-2fa or --optional-2fa, not both');
    if (require2fa || optional2fa) changes.require2fa = require2fa;
    if (v.flag(values, 'default')) changes.isDefault = true;
    if (Object.keys(changes).length === 0) throw new CliError('Nothing to change: give at least one option');
    return { slug: v.slug(positionals[0] ?? '', 'slug'), changes };
  },
  async run({ admin }, input: { slug: string; changes: Partial<BrandInput> }) {
    const { isDefault, ...fields } = input.changes;
    if (Object.keys(fields).length > 0) await admin.updateBrand(input.slug, fields);
    if (isDefault) await admin.setDefaultBrand(input.slug);
    return {
      json: { slug: input.slug, changed: Object.keys(input.changes) },
      text: `Brand '${input.slug}' updated: ${Object.keys(input.changes).join(', ')}`,
    };
  },
});

export const brandCommands: CommandGroup = {
  name: 'brand',
  summary: 'White-label brands: company, colour, logos, language, hosts',
  commands: [list, add, set],
};
