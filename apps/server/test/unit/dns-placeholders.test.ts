import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { loadConfig } from '../../src/config.ts';
import {
  correctedValue,
  isDocumentationValue,
  placeholderRefusal,
  placeholderSettings,
} from '../../src/dns-placeholders.ts';

/** The provider's own values for every setting a default record uses. */
const REAL = {
  PANEL_DNS_NAMESERVERS: 'ns1.hosting-provider.net,ns2.hosting-provider.net',
  PANEL_DNS_WEB_IPV4: '93.184.215.10',
  PANEL_DNS_WEB_IPV6: '2a00:1450:4003::10',
  PANEL_DNS_MAIL_IPV4: '93.184.215.25',
  PANEL_DNS_SPF_INCLUDE: '_spf.hosting-provider.net',
  PANEL_DNS_DMARC_REPORT: 'dmarc@hosting-provider.net',
};

describe('documentation values', () => {
  it('knows the reserved addresses and names, and nothing else', () => {
    for (const value of ['192.0.2.10', '198.51.100.7', '203.0.113.1', '2001:db8::10', '2001:0DB8:1::1']) {
      expect(isDocumentationValue(value), value).toBe(true);
    }
    for (const value of ['ns1.panel247.test', 'spf.example.com', 'x@panel247.test', 'host.invalid', 'a.example']) {
      expect(isDocumentationValue(value), value).toBe(true);
    }
    for (const value of [
      '93.184.215.10',
      '2a00:1450::1',
      '2001:db9::1',
      'ns1.provider.net',
      'x@provider.net',
      'test.com',
    ]) {
      expect(isDocumentationValue(value), value).toBe(false);
    }
  });
});

describe('placeholderSettings', () => {
  it('lists every built-in default a customer zone would get, with its variable', () => {
    expect(placeholderSettings(loadConfig({}))).toEqual([
      { variable: 'PANEL_DNS_NAMESERVERS', path: 'dns.nameservers.0', value: 'ns1.panel247.test' },
      { variable: 'PANEL_DNS_NAMESERVERS', path: 'dns.nameservers.1', value: 'ns2.panel247.test' },
      { variable: 'PANEL_DNS_WEB_IPV4', path: 'dns.webIpv4', value: '192.0.2.10' },
      { variable: 'PANEL_DNS_WEB_IPV6', path: 'dns.webIpv6', value: '2001:db8::10' },
      { variable: 'PANEL_DNS_MAIL_IPV4', path: 'dns.mailIpv4', value: '192.0.2.25' },
      { variable: 'PANEL_DNS_SPF_INCLUDE', path: 'dns.spfInclude', value: 'spf.panel247.test' },
      { variable: 'PANEL_DNS_DMARC_REPORT', path: 'dns.dmarcReport', value: 'dmarc-reports@panel247.test' },
    ]);
  });

  it('is empty once the provider set its values, or emptied the ones it has none of', () => {
    expect(placeholderSettings(loadConfig(REAL))).toEqual([]);
    const noIpv6 = loadConfig({ ...REAL, PANEL_DNS_WEB_IPV6: '', PANEL_DNS_DMARC_REPORT: '' });
    expect(noIpv6.dns.webIpv6).toBe('');
    expect(placeholderSettings(noIpv6)).toEqual([]);
  });

  it('ignores a setting no default record uses, and finds one written in a record', () => {
    const records = JSON.stringify([
      { type: 'NS', value: '{ns}', eliminable: false },
      { type: 'A', value: '{web_ipv4}' },
      { zona: 'sip', type: 'A', value: '198.51.100.5' },
    ]);
    const config = loadConfig({ ...REAL, PANEL_DNS_WEB_IPV6: '2001:db8::1', PANEL_DNS_DEFAULT_RECORDS: records });
    expect(placeholderSettings(config)).toEqual([
      { variable: 'PANEL_DNS_DEFAULT_RECORDS', path: 'dns.defaultRecords.2', value: '198.51.100.5' },
    ]);
  });
});

describe('placeholderRefusal', () => {
  it('refuses production with placeholders, naming each setting and the fix', () => {
    const refusal = placeholderRefusal(loadConfig({ ...REAL, PANEL_DNS_WEB_IPV6: '2001:db8::10' }), {
      NODE_ENV: 'production',
    });
    expect(refusal).toContain('dns.webIpv6 (PANEL_DNS_WEB_IPV6): 2001:db8::10');
    expect(refusal).toContain('npm run panel -- dns placeholders --fix');
    expect(refusal).not.toContain('PANEL_DNS_WEB_IPV4)');
  });

  it('lets development, tests, a trial and a configured production start', () => {
    expect(placeholderRefusal(loadConfig({}), {})).toBeUndefined();
    expect(placeholderRefusal(loadConfig({}), { NODE_ENV: 'test' })).toBeUndefined();
    const trial = loadConfig({ PANEL_DNS_ALLOW_PLACEHOLDERS: 'true' });
    expect(placeholderRefusal(trial, { NODE_ENV: 'production' })).toBeUndefined();
    expect(placeholderRefusal(loadConfig(REAL), { NODE_ENV: 'production' })).toBeUndefined();
  });
});

describe('the server in production', () => {
  it('does not start with documentation values, and creates nothing', () => {
    const dataDir = path.join(tmpdir(), `p247-refused-${process.pid}`);
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PANEL_')));
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../../../..'),
      env: {
        ...inherited,
        NODE_ENV: 'production',
        PANEL_DATA_DIR: dataDir,
        PORT: '0',
        ...REAL,
        PANEL_DNS_WEB_IPV6: '2001:db8::10',
      },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('dns.webIpv6 (PANEL_DNS_WEB_IPV6): 2001:db8::10');
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('correctedValue', () => {
  const config = loadConfig({ ...REAL, PANEL_DNS_WEB_IPV6: '' });
  const fix = (type: string, value: string) => correctedValue({ type, value }, config);

  it('puts the current setting in place of the built-in placeholder it was made from', () => {
    expect(fix('A', '192.0.2.10')).toBe('93.184.215.10');
    expect(fix('A', '192.0.2.25')).toBe('93.184.215.25');
    expect(fix('NS', 'ns2.panel247.test')).toBe('ns2.hosting-provider.net');
    expect(fix('TXT', 'v=spf1 mx a include:spf.panel247.test ~all')).toBe(
      'v=spf1 mx a include:_spf.hosting-provider.net ~all',
    );
    expect(fix('TXT', 'v=DMARC1; p=none; rua=mailto:dmarc-reports@panel247.test')).toBe(
      'v=DMARC1; p=none; rua=mailto:dmarc@hosting-provider.net',
    );
  });

  it('removes a record whose setting is now empty, and drops an emptied part of a TXT', () => {
    expect(fix('AAAA', '2001:db8::10')).toBeNull();
    const noReports = loadConfig({ ...REAL, PANEL_DNS_DMARC_REPORT: '', PANEL_DNS_SPF_INCLUDE: '' });
    expect(
      correctedValue({ type: 'TXT', value: 'v=DMARC1; p=none; rua=mailto:dmarc-reports@panel247.test' }, noReports),
    ).toBe('v=DMARC1; p=none');
    expect(correctedValue({ type: 'TXT', value: 'v=spf1 mx a include:spf.panel247.test ~all' }, noReports)).toBe(
      'v=spf1 mx a ~all',
    );
  });

  it("leaves the customer's own records, and a setting still a placeholder", () => {
    expect(fix('A', '93.184.215.99')).toBeUndefined();
    expect(fix('TXT', 'v=spf1 include:_spf.google.com ~all')).toBeUndefined();
    expect(fix('CNAME', 'ns1.panel247.test')).toBeUndefined();
    const half = loadConfig({ PANEL_DNS_WEB_IPV4: '93.184.215.10' });
    expect(correctedValue({ type: 'A', value: '192.0.2.10' }, half)).toBe('93.184.215.10');
    expect(correctedValue({ type: 'AAAA', value: '2001:db8::10' }, half)).toBeUndefined();
    expect(
      correctedValue({ type: 'A', value: '192.0.2.10' }, loadConfig({ PANEL_DNS_WEB_IPV4: '192.0.2.99' })),
    ).toBeUndefined();
  });
});

describe('panel dns placeholders', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-dns-placeholders-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const base = { PANEL_DATA_DIR: dataDir, PANEL_SEED_DEMO: 'false', PANEL_LOG_LEVEL: 'silent' };

  async function panel(env: Record<string, string>, args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...args, '--json'], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      readStdin: async () => '',
      env,
      installedEnvFile: path.join(dataDir, 'none.env'),
    });
    return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
  }

  it('corrects the zones made with the built-in placeholders once the settings are real', async () => {
    // a zone made before the provider set anything
    expect((await panel(base, ['brand', 'add', '--slug', 'acme', '--company', 'Acme', '--default'])).code).toBe(0);
    expect((await panel(base, ['account', 'add', '--domain', 'old.example.org', '--brand', 'acme'])).code).toBe(0);
    const made = await panel(base, [
      'resource',
      'add',
      '--domain',
      'old.example.org',
      '--reference',
      'old.example.org',
      '--service',
    ]);
    expect(made).toMatchObject({ code: 0, stderr: '' });

    const before = await panel(base, ['dns', 'placeholders']);
    expect(before.code).toBe(1);
    expect(before.json.settings).toHaveLength(7);
    expect(before.json.records).toEqual([]);

    const real = { ...base, ...REAL, PANEL_DNS_WEB_IPV6: '' };
    const dryRun = await panel(real, ['dns', 'placeholders']);
    expect(dryRun.code).toBe(1);
    expect(dryRun.json.settings).toEqual([]);
    expect(dryRun.json.records).toHaveLength(7);

    const fixed = await panel(real, ['dns', 'placeholders', '--fix']);
    expect(fixed.code).toBe(0);
    expect(fixed.json.records).toEqual(
      expect.arrayContaining([
        { zone: 'old.example.org', zona: '', type: 'AAAA', before: '2001:db8::10', after: null },
        { zone: 'old.example.org', zona: 'mail', type: 'A', before: '192.0.2.25', after: '93.184.215.25' },
        {
          zone: 'old.example.org',
          zona: '',
          type: 'TXT',
          before: 'v=spf1 mx a include:spf.panel247.test ~all',
          after: 'v=spf1 mx a include:_spf.hosting-provider.net ~all',
        },
      ]),
    );
    const again = await panel(real, ['dns', 'placeholders']);
    expect(again).toMatchObject({ code: 0, json: { settings: [], records: [] } });
  });
});
