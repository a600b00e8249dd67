import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('mail sending limit settings', () => {
  it('are off with a limit of 200 by default', () => {
    expect(loadConfig({}).mailSending).toEqual({ policyListen: '', limitPerHour: 200 });
  });

  it('take a socket path or host:port, and the limit, from the environment', () => {
    for (const listen of [
      '/var/spool/postfix/private/panel247-policy',
      '127.0.0.1:10040',
      '[::1]:10040',
      'localhost:10040',
    ]) {
      const config = loadConfig({ PANEL_MAIL_POLICY_LISTEN: listen, PANEL_MAIL_SEND_LIMIT_PER_HOUR: '50' });
      expect(config.mailSending).toEqual({ policyListen: listen, limitPerHour: 50 });
    }
  });

  it('refuse anything else, naming the setting', () => {
    for (const listen of ['10040', 'private/panel247-policy', 'mail host:1', '127.0.0.1:10040\n', '/a/../b c']) {
      expect(() => loadConfig({ PANEL_MAIL_POLICY_LISTEN: listen }), listen).toThrow(ConfigError);
    }
    for (const limit of ['0', '-1', '1.5', 'many']) {
      expect(() => loadConfig({ PANEL_MAIL_SEND_LIMIT_PER_HOUR: limit }), limit).toThrow(/mailSending\.limitPerHour/);
    }
  });
});
