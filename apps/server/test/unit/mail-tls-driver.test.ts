import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMailTlsHost, MailTlsDriver } from '../../src/drivers/mail-tls/mail-tls.driver.ts';
import type { Executed } from '../../src/drivers/users/system.driver.ts';

const COMMANDS = { doveadm: 'doveadm', postfix: 'postfix', postmap: 'postmap' };

/** Records each command; `postmap -F hash:FILE` makes FILE.db from what FILE names at that moment. */
function fakeSystem(answers: Partial<Record<string, Executed>> = {}) {
  const calls: string[][] = [];
  const run = async (file: string, args: string[]): Promise<Executed> => {
    calls.push([file, ...args]);
    if (file === 'postmap') {
      const source = (args.at(-1) as string).replace(/^hash:/, '');
      const inlined = readFileSync(source, 'utf8')
        .trim()
        .split('\n')
        .map((line) => {
          const [host, key, chain] = line.split(' ');
          return `${host} ${readFileSync(key as string, 'utf8')}${readFileSync(chain as string, 'utf8')}`;
        });
      writeFileSync(`${source}.db`, inlined.join('\n'));
    }
    return answers[file] ?? { code: 0, stdout: '', stderr: '' };
  };
  return { calls, run };
}

const pair = (name: string) => ({ keyPem: `KEY ${name}\n`, fullchainPem: `CHAIN ${name}\n` });

describe('mail TLS folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mail-tls-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the default pair, one folder per certificate, both SNI tables, and reloads both daemons', async () => {
    const system = fakeSystem();
    const driver = new MailTlsDriver(
      { dir, doveadmConfig: '/etc/dovecot/dovecot.conf', postfixConfigDir: '/etc/postfix', commands: COMMANDS },
      system.run,
    );
    await driver.install(
      [
        { hosts: ['imap.example.com', 'smtp.example.com'], ...pair('example') },
        { hosts: ['ssl.provider.test'], ...pair('provider') },
      ],
      'ssl.provider.test',
    );
    expect(readFileSync(path.join(dir, 'default/key.pem'), 'utf8')).toBe('KEY provider\n');
    expect(readFileSync(path.join(dir, 'default/fullchain.pem'), 'utf8')).toBe('CHAIN provider\n');
    const exampleKey = path.join(dir, 'hosts/imap.example.com/key.pem');
    expect(readFileSync(exampleKey, 'utf8')).toBe('KEY example\n');
    expect(statSync(exampleKey).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, 'hosts/imap.example.com')).mode & 0o777).toBe(0o700);

    const dovecot = readFileSync(path.join(dir, 'dovecot-sni.conf'), 'utf8');
    for (const host of ['imap.example.com', 'smtp.example.com']) {
      expect(dovecot).toContain(
        `local_name ${host} {\n  ssl_cert = <${dir}/hosts/imap.example.com/fullchain.pem\n  ssl_key = <${exampleKey}\n}\n`,
      );
    }
    expect(dovecot).toContain('local_name ssl.provider.test {');
    expect(readFileSync(path.join(dir, 'postfix-sni'), 'utf8').trim().split('\n')).toEqual([
      `imap.example.com ${exampleKey} ${dir}/hosts/imap.example.com/fullchain.pem`,
      `smtp.example.com ${exampleKey} ${dir}/hosts/imap.example.com/fullchain.pem`,
      `ssl.provider.test ${dir}/hosts/ssl.provider.test/key.pem ${dir}/hosts/ssl.provider.test/fullchain.pem`,
    ]);
    // the compiled table holds the keys: root's alone
    expect(readFileSync(path.join(dir, 'postfix-sni.db'), 'utf8')).toContain('KEY provider');
    expect(statSync(path.join(dir, 'postfix-sni.db')).mode & 0o777).toBe(0o600);
    // nothing written aside is left
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(system.calls.map((call) => call.join(' '))).toEqual([
      expect.stringMatching(/^postmap -c \/etc\/postfix -F hash:.*\/\.postfix-sni\.[0-9a-f]+$/),
      'doveadm -c /etc/dovecot/dovecot.conf reload',
      'postfix -c /etc/postfix reload',
    ]);
  });

  it('takes the first certificate as the default when none covers the default host', async () => {
    const driver = new MailTlsDriver({ dir, commands: COMMANDS }, fakeSystem().run);
    await driver.install([{ hosts: ['imap.example.com'], ...pair('example') }], '');
    expect(readFileSync(path.join(dir, 'default/fullchain.pem'), 'utf8')).toBe('CHAIN example\n');
  });

  it('refuses a name that is not a host name before writing anything', async () => {
    const system = fakeSystem();
    const driver = new MailTlsDriver({ dir, commands: COMMANDS }, system.run);
    for (const hosts of [['../etc'], ['imap.example.com }\nssl_key = </etc/shadow'], ['IMAP.Example.com'], []]) {
      await expect(driver.install([{ hosts, ...pair('x') }], '')).rejects.toThrow();
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(system.calls).toEqual([]);
    expect(isMailTlsHost('imap.xn--bcher-kva.example')).toBe(true);
  });

  it('keeps the working table when postmap fails, and says why', async () => {
    const driver = new MailTlsDriver({ dir, commands: COMMANDS }, fakeSystem().run);
    await driver.install([{ hosts: ['imap.example.com'], ...pair('old') }], '');
    const failing = fakeSystem({ postmap: { code: 1, stdout: '', stderr: 'postmap: fatal: bad key' } });
    const broken = new MailTlsDriver({ dir, commands: COMMANDS }, failing.run);
    await expect(broken.install([{ hosts: ['imap.example.com'], ...pair('new') }], '')).rejects.toMatchObject({
      detail: expect.stringContaining('bad key'),
    });
    expect(readFileSync(path.join(dir, 'postfix-sni.db'), 'utf8')).toContain('KEY old');
    expect(failing.calls.some((call) => call[0] === 'postfix' || call[0] === 'doveadm')).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('reports a reload the daemon refused', async () => {
    const system = fakeSystem({ doveadm: { code: 75, stdout: '', stderr: 'doveadm: Fatal: dovecot is not running' } });
    const driver = new MailTlsDriver({ dir, doveadmConfig: '/x/dovecot.conf', commands: COMMANDS }, system.run);
    await expect(driver.install([{ hosts: ['imap.example.com'], ...pair('a') }], '')).rejects.toMatchObject({
      detail: expect.stringContaining('not running'),
    });
    expect(existsSync(path.join(dir, 'default/key.pem'))).toBe(true);
  });
});
