import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WEBMAIL_TOKEN_FIELD } from '@panel247/contract/mail';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createMailDriver } from '../../src/drivers/mail/create-mail-driver.ts';

describe('mail driver', () => {
  it('is embedded by default, dovecot with a doveadm config, and dovecot needs that config', () => {
    expect(createMailDriver(loadConfig({})).kind).toBe('embedded');
    expect(createMailDriver(loadConfig({ PANEL_MAIL_DOVEADM_CONFIG: '/etc/dovecot/dovecot.conf' })).kind).toBe(
      'dovecot',
    );
    expect(() => loadConfig({ PANEL_MAIL_DRIVER: 'dovecot' })).toThrow(ConfigError);
    expect(
      createMailDriver(loadConfig({ PANEL_MAIL_DRIVER: 'embedded', PANEL_MAIL_DOVEADM_CONFIG: '/x.conf' })).kind,
    ).toBe('embedded');
  });

  it('measures, removes and hands off a mailbox through the configured mail root', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-mail-driver-'));
    const driver = createMailDriver(loadConfig({ PANEL_MAIL_ROOT: root, PANEL_MAIL_DELETE_MODE: 'remove' }));
    const mailbox = { domain: 'example.test', localPart: 'info' };
    mkdirSync(path.join(root, 'example.test', 'info', 'Maildir', 'new'), { recursive: true });
    writeFileSync(path.join(root, 'example.test', 'info', 'Maildir', 'new', 'one'), 'x'.repeat(100));
    expect(await driver.usage(mailbox)).toBe(100);
    await driver.mailboxDeleted(mailbox, 1_000_000);
    expect(await driver.usage(mailbox)).toBe(0);
    expect(driver.webmailSignon(mailbox, 'tok', '/webmail/')).toEqual({
      action: '/webmail/',
      method: 'post',
      fields: { _task: 'login', _action: 'login', _user: 'info@example.test', [WEBMAIL_TOKEN_FIELD]: 'tok' },
    });
  });
});
