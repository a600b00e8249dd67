import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEPLOY, PHP_VERSION, RSPAMD_SCANNER, type Step } from './context.ts';
import { run, writeIfChanged } from './system.ts';

/** deploy/'s tmpfiles.d files and systemd units, copied as they are into /etc. */
const COPIED = [
  { from: 'tmpfiles.d/panel247.conf', to: '/etc/tmpfiles.d/panel247.conf', unit: undefined },
  { from: 'tmpfiles.d/panel247-opendkim.conf', to: '/etc/tmpfiles.d/panel247-opendkim.conf', unit: undefined },
  { from: 'systemd/panel247.service', to: '/etc/systemd/system/panel247.service', unit: 'panel247.service' },
  {
    from: `systemd/php${PHP_VERSION}-fpm.service.d/panel247.conf`,
    to: `/etc/systemd/system/php${PHP_VERSION}-fpm.service.d/panel247.conf`,
    unit: `php${PHP_VERSION}-fpm.service`,
  },
  {
    from: 'systemd/opendkim.service.d/panel247.conf',
    to: '/etc/systemd/system/opendkim.service.d/panel247.conf',
    unit: 'opendkim.service',
  },
] as const;

/**
 * The folders of the owners table (tmpfiles.d, also made at every boot) and the panel's unit with
 * the daemons' drop-ins. The group panel247 exists by now: tmpfiles.d names it.
 */
export const unitsStep: Step = {
  title: 'Runtime folders (tmpfiles.d) and systemd units',
  async run({ say, changedUnits }) {
    for (const file of COPIED) {
      if (writeIfChanged(file.to, readFileSync(path.join(DEPLOY, file.from), 'utf8'), { mode: 0o644 })) {
        if (file.unit) changedUnits.add(file.unit);
        say(`installed ${file.to}`);
      }
    }
    await run('systemd-tmpfiles', ['--create', 'panel247.conf', 'panel247-opendkim.conf']);
    say('checked the folders of panel247.conf and panel247-opendkim.conf (systemd-tmpfiles --create)');
  },
};

/**
 * The order in which everything starts on a machine with no customer yet: the databases, the
 * daemons the panel drives (PHP-FPM and OpenDKIM after their folders and tables, which tmpfiles.d
 * made), nginx with the panel's proxy, then the panel, whose unit is After= all of them.
 */
export const START_ORDER = [
  'postgresql.service',
  'mariadb.service',
  'pdns.service',
  'opendkim.service',
  // before Dovecot: the spam filter it runs at delivery asks rspamd
  'rspamd.service',
  'dovecot.service',
  'postfix.service',
  'proftpd.service',
  `php${PHP_VERSION}-fpm.service`,
  'nginx.service',
  'panel247.service',
] as const;

export const startStep: Step = {
  title: 'Enable and start the services',
  async run({ say, changedUnits }) {
    await run('systemctl', ['daemon-reload']);
    for (const unit of START_ORDER) {
      const enabled = (await run('systemctl', ['is-enabled', unit], { allowedCodes: [1] })).stdout.trim();
      if (enabled !== 'enabled') {
        await run('systemctl', ['enable', unit]);
        say(`enabled ${unit}`);
      }
      const active = (await run('systemctl', ['is-active', unit], { allowedCodes: [3, 4] })).stdout.trim();
      if (changedUnits.has(unit) || active !== 'active') {
        await run('systemctl', ['restart', unit]);
        say(`${active === 'active' ? 'restarted' : 'started'} ${unit}`);
      }
      if (unit === 'rspamd.service') await rspamdAnswers();
    }
  },
};

/**
 * rspamd loads its rules (and compiles its patterns on a first start) before its scanner answers:
 * the doctor at the end of the install asks it, so the install waits for its `/ping` here. One
 * that never answers fails the install with its journal.
 */
async function rspamdAnswers(timeoutMs = 180_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const pong = await fetch(`http://${RSPAMD_SCANNER}/ping`, { signal: AbortSignal.timeout(5000) })
      .then((response) => response.text())
      .catch(() => '');
    if (pong.trim() === 'pong') return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const journal = await run('journalctl', ['-u', 'rspamd', '-b', '--no-pager', '-n', '40'], { allowedCodes: [1] });
  throw new Error(`rspamd did not answer at ${RSPAMD_SCANNER}/ping:\n${journal.stdout}`);
}
