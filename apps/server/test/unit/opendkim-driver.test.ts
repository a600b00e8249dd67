import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OpenDkimDriver } from '../../src/drivers/dkim/opendkim.driver.ts';

const key = (selector: string) => ({ selector, algorithm: 'rsa' as const, privateKey: `PEM of ${selector}\n` });

describe('the OpenDKIM driver', () => {
  it('writes each domain’s keys (0600) and tables built from the key folders; an empty set removes the domain', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'p247-dkim-unit-'));
    const driver = new OpenDkimDriver({ dir, pidFile: path.join(dir, 'none.pid') });
    await driver.setSigningKeys('uno.test', [key('rsa1')]);
    await driver.setSigningKeys('dos.test', [key('rsa2')]);
    await driver.setSigningKeys('uno.test', [key('rsa3')]);
    expect(readdirSync(path.join(dir, 'keys', 'uno.test'))).toEqual(['rsa3.private']);
    expect(statSync(path.join(dir, 'keys', 'uno.test', 'rsa3.private')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dir, 'KeyTable'), 'utf8')).toBe(
      `rsa2._domainkey.dos.test dos.test:rsa2:${dir}/keys/dos.test/rsa2.private\n` +
        `rsa3._domainkey.uno.test uno.test:rsa3:${dir}/keys/uno.test/rsa3.private\n`,
    );
    expect(readFileSync(path.join(dir, 'SigningTable'), 'utf8')).toBe(
      '*@dos.test rsa2._domainkey.dos.test\n*@uno.test rsa3._domainkey.uno.test\n',
    );
    await driver.setSigningKeys('dos.test', []);
    expect(readdirSync(path.join(dir, 'keys'))).toEqual(['uno.test']);
    expect(readFileSync(path.join(dir, 'SigningTable'), 'utf8')).toBe('*@uno.test rsa3._domainkey.uno.test\n');
  });

  it('refuses names that are not a domain or a selector before they name a file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'p247-dkim-unit-'));
    const driver = new OpenDkimDriver({ dir, pidFile: path.join(dir, 'none.pid') });
    await expect(driver.setSigningKeys('../etc', [key('rsa1')])).rejects.toThrow(/not a domain/);
    await expect(driver.setSigningKeys('uno.test', [key('../x')])).rejects.toThrow(/not a selector/);
  });

  it('sync reports the domains that differ and puts them right (a dry run only reports)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'p247-dkim-unit-'));
    const driver = new OpenDkimDriver({ dir, pidFile: path.join(dir, 'none.pid') });
    await driver.setSigningKeys('uno.test', [key('rsa1')]);
    await driver.setSigningKeys('extra.test', [key('rsa9')]);
    writeFileSync(path.join(dir, 'keys', 'uno.test', 'rsa1.private'), 'tampered');
    const wanted = new Map([
      ['uno.test', [key('rsa1')]],
      ['dos.test', [key('rsa2')]],
    ]);
    expect(await driver.sync(wanted, { dryRun: true })).toEqual(['dos.test', 'extra.test', 'uno.test']);
    expect(await driver.sync(wanted, { dryRun: false })).toEqual(['dos.test', 'extra.test', 'uno.test']);
    expect(await driver.sync(wanted, { dryRun: true })).toEqual([]);
    expect(readFileSync(path.join(dir, 'keys', 'uno.test', 'rsa1.private'), 'utf8')).toBe('PEM of rsa1\n');
  });
});
