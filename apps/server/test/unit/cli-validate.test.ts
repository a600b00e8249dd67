import { describe, expect, it } from 'vitest';
import { CliError, type CliIo } from '../../src/cli/command.ts';
import { bulkReferences } from '../../src/cli/commands/resource.command.ts';
import { table } from '../../src/cli/output.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import * as v from '../../src/cli/validate.ts';

/** runCli in-process; every case here fails before the database would be opened. */
async function run(argv: string[], stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
    env: { PANEL_DATA_DIR: '/nonexistent/panel-cli-unit' },
  };
  const code = await runCli(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('CLI allow-lists', () => {
  it('accepts LDH domain names, lower-cased, and refuses the rest', () => {
    expect(v.domainName('Demo.TEST')).toBe('demo.test');
    for (const bad of ['a..b', '-a.test', 'a_b.test', 'a.test\n', 'a test', '', 'x'.repeat(64)]) {
      expect(() => v.domainName(bad)).toThrow(CliError);
    }
  });

  it('accepts internationalized references through punycode', () => {
    expect(v.reference('Müller.test')).toBe('müller.test');
    expect(() => v.reference('mü ller.test')).toThrow(CliError);
    expect(() => v.reference('a.test\u0000')).toThrow(CliError);
  });

  it('keeps user names, slugs and channels to their characters', () => {
    expect(v.username('web.master_1-a')).toBe('web.master_1-a');
    for (const bad of ['Admin', 'a b', 'a\r', '', 'a'.repeat(65), 'ñ']) expect(() => v.username(bad)).toThrow(CliError);
    expect(() => v.slug('Acme')).toThrow(CliError);
    expect(() => v.slug('acme-')).toThrow(CliError);
    expect(() => v.channel('chan nel')).toThrow(CliError);
  });

  it('takes levels, keys, colours and languages only from their lists', () => {
    expect(v.keyLevels(['domain_dns=read', 'service=write'])).toEqual({ domain_dns: 'read', service: 'write' });
    expect(() => v.keyLevels(['domain_dns'])).toThrow(/KEY=LEVEL/);
    expect(() => v.keyLevels(['nope=read'])).toThrow(/unknown permission key/);
    expect(() => v.keyLevels(['domain=admin'])).toThrow(/unknown level/);
    expect(v.color('teal')).toBe('teal');
    expect(() => v.color('mauve')).toThrow(CliError);
    expect(v.language('ca')).toBe('ca');
    expect(() => v.language('fr')).toThrow(CliError);
  });

  it('refuses control characters in one-line text but keeps newlines in long text', () => {
    expect(v.line('  Acme  ', 'company')).toBe('Acme');
    expect(() => v.line('Acme\r\nBcc: x', 'company')).toThrow(/control characters/);
    expect(v.text('a\n\tb\r\n', 'text')).toBe('a\n\tb');
    expect(() => v.text('a\u0000b', 'text')).toThrow(CliError);
  });

  it('checks URLs, e-mails, dates and numbers', () => {
    expect(v.urlOrPath('https://cdn.test/logo.svg', 'logo')).toBe('https://cdn.test/logo.svg');
    expect(v.urlOrPath('/branding/logo.svg', 'logo')).toBe('/branding/logo.svg');
    for (const bad of ['javascript:alert(1)', '//evil.test/x', 'https://a.test/"onload', 'logo.svg']) {
      expect(() => v.urlOrPath(bad, 'logo')).toThrow(CliError);
    }
    expect(() => v.urlOrPath('/local', 'redirect', false)).toThrow(CliError);
    expect(v.email('soporte@demo.test')).toBe('soporte@demo.test');
    expect(() => v.email('a@b.test\r\nBcc: c@d.test')).toThrow(CliError);
    expect(v.date('2030-01-31', 'domain-expires')).toBe(1_896_048_000);
    expect(() => v.date('2030-02-30', 'domain-expires')).toThrow(CliError);
    expect(v.integer('30', 'count', 1, 100)).toBe(30);
    expect(() => v.integer('0', 'count', 1, 100)).toThrow(CliError);
    expect(() => v.integer('1e3', 'count', 1, 10_000)).toThrow(CliError);
  });

  it('requires passwords of the panel minimum without control characters', () => {
    expect(v.password('long enough pass')).toBe('long enough pass');
    expect(() => v.password('short')).toThrow(/at least/);
    expect(() => v.password('long enough\npass')).toThrow(/control characters/);
  });

  it('numbers bulk references from 1 with at least four digits', () => {
    expect(bulkReferences('page', 3)).toEqual(['page0001.test', 'page0002.test', 'page0003.test']);
    expect(bulkReferences('p', 12_000).at(-1)).toBe('p12000.test');
  });

  it('renders tables with aligned columns and a dash for empty cells', () => {
    expect(
      table(
        ['ID', 'NAME'],
        [
          [1, 'acme'],
          [10, null],
        ],
      ),
    ).toBe('ID  NAME\n1   acme\n10  -');
    expect(table(['ID'], [])).toBe('(none)');
  });
});

describe('runCli input errors', () => {
  it('prints help on stdout with exit code 0', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('resource add --domain D');
    const command = await run(['permission', 'set', '--help']);
    expect(command.stdout).toContain('--key KEY=LEVEL');
  });

  it('reports unknown commands and options on stderr with exit code 1', async () => {
    expect(await run(['bogus'])).toMatchObject({ code: 1, stdout: '' });
    expect((await run(['brand', 'remove'])).stderr).toContain("Unknown command 'brand remove'");
    expect((await run(['brand', 'list', '--nope'])).stderr).toContain("Unknown option '--nope'");
    expect((await run(['brand', 'set'])).stderr).toContain('Missing SLUG');
  });

  it('validates before opening the database', async () => {
    const level = await run([
      'permission',
      'set',
      '--domain',
      'a.test',
      '--user',
      'u',
      '--reference',
      'a.test',
      '--all',
      'x',
    ]);
    expect(level).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: --all: unknown level "x" (one of disabled, read, write)\n',
    });
    const both = await run([
      'permission',
      'set',
      '--domain',
      'a.test',
      '--user',
      'u',
      '--reference',
      'a.test',
      '--all',
      'read',
      '--key',
      'domain=read',
    ]);
    expect(both.stderr).toContain('either --all or --key');
    const bulk = await run(['resource', 'add', '--domain', 'a.test', '--count', '5', '--prefix', 'p', '--service']);
    expect(bulk.stderr).toContain('--count needs --grant-user');
  });

  it('reads the password from stdin and refuses two sources or none', async () => {
    const none = await run(['user', 'add', '--domain', 'a.test', '--user', 'u']);
    expect(none.stderr).toContain('--password-stdin');
    const both = await run([
      'user',
      'add',
      '--domain',
      'a.test',
      '--user',
      'u',
      '--password-stdin',
      '--password',
      'x'.repeat(12),
    ]);
    expect(both.stderr).toContain('not both');
    const short = await run(['user', 'add', '--domain', 'a.test', '--user', 'u', '--password-stdin'], 'short\n');
    expect(short.stderr).toContain('at least');
  });
});
