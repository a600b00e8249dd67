import { execFile } from 'node:child_process';
import { access, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import type { AppConfig } from '../../config.ts';
import { phpMasters } from '../web/create-web-driver.ts';
import { nginxArgs } from '../web/nginx.driver.ts';
import { readPidFile } from '../web/pid-file.ts';
import { checked, type DaemonCheck } from './daemon-check.ts';
import { nameServersInStep } from './name-server-checks.ts';
import { greeting, hostPort, httpAnswers } from './network-checks.ts';

const run = promisify(execFile);

/** The pid in a master's pid file, when that process runs. */
async function runningPid(pidFile: string): Promise<number> {
  const pid = await readPidFile(pidFile);
  if (pid === null) throw new Error(`no pid in ${pidFile}`);
  // signal 0 only asks whether the process exists
  process.kill(pid, 0);
  return pid;
}

function powerDns(config: AppConfig): Promise<DaemonCheck> {
  const { powerdnsApiUrl, powerdnsApiKey, powerdnsServerId } = config.dns;
  return checked(
    'powerdns',
    'Start PowerDNS (systemctl start pdns) with api=yes and webserver=yes, and check PANEL_POWERDNS_API_URL and PANEL_POWERDNS_API_KEY against pdns.conf.',
    async (signal) => {
      const url = `${String(powerdnsApiUrl).replace(/\/$/, '')}/api/v1/servers/${encodeURIComponent(powerdnsServerId)}`;
      const response = await fetch(url, { signal, headers: { 'X-API-Key': String(powerdnsApiKey ?? '') } });
      if (!response.ok) throw new Error(`the API answers HTTP ${response.status}`);
      const server = (await response.json()) as { version?: string };
      return `API answers: PowerDNS ${server.version ?? '?'}`;
    },
  );
}

function dovecot(config: AppConfig): Promise<DaemonCheck> {
  const doveadmConfig = String(config.mail.doveadmConfig);
  return checked(
    'dovecot',
    `Start Dovecot (systemctl start dovecot) and check PANEL_MAIL_DOVEADM_CONFIG (${doveadmConfig}).`,
    async () => {
      await run('doveadm', ['-c', doveadmConfig, 'auth', 'cache', 'flush'], { timeout: 5000 });
      return `doveadm -c ${doveadmConfig} auth cache flush: done`;
    },
  );
}

function postfix(config: AppConfig): Promise<DaemonCheck> {
  const { host, port } = hostPort(config.mail.smtpAddress);
  return checked(
    'postfix',
    `Start Postfix (systemctl start postfix) and check PANEL_MAIL_SMTP_ADDRESS (${config.mail.smtpAddress}).`,
    (signal) => greeting(host, port, '220', signal),
  );
}

function openDkim(config: AppConfig): Promise<DaemonCheck> {
  const dir = String(config.mail.opendkimDir);
  const pidFile = config.mail.opendkimPidFile ?? path.join(dir, 'opendkim.pid');
  return checked(
    'opendkim',
    `Start OpenDKIM (systemctl start opendkim) with deploy/opendkim's configuration, and check PANEL_MAIL_OPENDKIM_DIR (${dir}) and PANEL_MAIL_OPENDKIM_PID_FILE (${pidFile}).`,
    async () => {
      // the tables it signs from must be there: the panel writes them, OpenDKIM refuses to start without
      await access(path.join(dir, 'KeyTable'));
      await access(path.join(dir, 'SigningTable'));
      return `running (pid ${await runningPid(pidFile)}), tables in ${dir}`;
    },
  );
}

/** rspamd's scanner, which the mailboxes' spam filter asks at delivery: its `/ping` answers `pong`. */
function rspamd(address: string): Promise<DaemonCheck> {
  return checked(
    'rspamd',
    `Start rspamd (systemctl start rspamd) with deploy/rspamd's scanner address, and check PANEL_MAIL_RSPAMD_ADDRESS (${address}); while it is down, filtering mailboxes get their mail unfiltered.`,
    async (signal) => {
      const response = await fetch(`http://${address}/ping`, { signal });
      const body = (await response.text()).trim();
      if (!response.ok || body !== 'pong')
        throw new Error(`${address}/ping answered ${response.status} ${body.slice(0, 40)}`);
      return `${address}/ping: pong`;
    },
  );
}

function proftpd(config: AppConfig): Promise<DaemonCheck> {
  const { ftpHost, ftpPort, ftpUsersFile } = config.hosting;
  return checked(
    'proftpd',
    `Start ProFTPD (systemctl start proftpd), check PANEL_FTP_HOST and PANEL_FTP_PORT (${ftpHost}:${ftpPort}), and on SQLite run npm run panel -- ftp sync to rewrite its copy of the accounts.`,
    async (signal) => {
      const greets = await greeting(ftpHost, ftpPort, '220', signal);
      // on SQLite ProFTPD logs users in from the panel's copy: it must be there to be read
      if (ftpUsersFile) await access(ftpUsersFile);
      return ftpUsersFile ? `${greets}; accounts copy ${ftpUsersFile} present` : greets;
    },
  );
}

function nginx(config: AppConfig): Promise<DaemonCheck> {
  const web = config.web;
  const args = nginxArgs({ prefix: web.nginxPrefix, conf: web.nginxConf, errorLog: web.nginxErrorLog });
  return checked(
    'nginx',
    'Read the message: a configuration file was edited by hand or a certificate went missing. npm run panel -- web sync rewrites every service’s configuration; start nginx if it is down.',
    async () => {
      await run(web.nginxBinary, ['-t', '-q', ...args], { timeout: 5000 }).catch(
        (error: { stderr?: string; message: string }) => {
          throw new Error((error.stderr ?? error.message).trim().split('\n')[0] ?? 'nginx -t failed');
        },
      );
      const pid = await runningPid(web.nginxPidFile);
      return `nginx -t: the configuration is valid; master (pid ${pid}) running`;
    },
  );
}

function phpFpm(pidFile: string, version: string): Promise<DaemonCheck> {
  return checked(
    `php-fpm ${version}`,
    `Start PHP-FPM ${version} (systemctl start php${version}-fpm) and check PANEL_WEB_PHP_PID_FILES (${pidFile}).`,
    async () => `master (pid ${await runningPid(pidFile)}) running`,
  );
}

function mariadb(config: AppConfig): Promise<DaemonCheck> {
  return checked(
    'mariadb',
    'Start MariaDB (systemctl start mariadb) and check the admin login in PANEL_DATABASES_URL (it needs every privilege, with GRANT OPTION).',
    async () => {
      const connection = await mysql.createConnection({ uri: String(config.databases.url), connectTimeout: 4000 });
      try {
        const [rows] = await connection.query('SELECT VERSION() AS version');
        return `admin login works: MariaDB ${(rows as { version: string }[])[0]?.version ?? '?'}`;
      } finally {
        await connection.end();
      }
    },
  );
}

function phpMyAdmin(url: string): Promise<DaemonCheck> {
  return checked(
    'phpmyadmin',
    `Install deploy/phpmyadmin (its sign-on script and pool) and check PANEL_PHPMYADMIN_URL (${url}).`,
    // the hand-off script itself refuses a GET with 405: nginx found it and PHP ran it
    (signal) => httpAnswers(url, signal, (status) => status < 400 || status === 405),
  );
}

/** Free space where the panel writes: 5 % and 1 GiB at least on each file system. */
function disk(config: AppConfig): Promise<DaemonCheck> {
  const folders = [config.dataDir, config.hosting.root, config.mail.root].filter((folder): folder is string =>
    Boolean(folder),
  );
  return checked('disk', 'Free space on the file systems listed (old backups, logs, kept mailboxes).', async () => {
    const notes: string[] = [];
    const low: string[] = [];
    const seen = new Set<number>();
    for (const folder of new Set(folders)) {
      // the nearest folder that exists: a new installation has not made them all yet
      let probe = folder;
      while (
        !(await access(probe).then(
          () => true,
          () => false,
        )) &&
        probe !== path.dirname(probe)
      ) {
        probe = path.dirname(probe);
      }
      // one line per file system
      const { dev } = await stat(probe);
      if (seen.has(dev)) continue;
      seen.add(dev);
      const stats = await statfs(probe);
      const free = stats.bavail * stats.bsize;
      const share = free / (stats.blocks * stats.bsize);
      const line = `${folder}: ${(free / 2 ** 30).toFixed(1)} GiB free (${Math.round(share * 100)} %)`;
      (share < 0.05 || free < 2 ** 30 ? low : notes).push(line);
    }
    if (low.length > 0) throw new Error(`low: ${low.join('; ')}`);
    return notes.join('; ');
  });
}

/** restic, which every backup and restore runs (whatever the drivers: homes are backed up on every machine). */
function restic(config: AppConfig): Promise<DaemonCheck> {
  const binary = config.backups.resticBinary;
  return checked(
    'restic',
    `Install restic (apt-get install restic) or set PANEL_BACKUP_RESTIC_BINARY (${binary}): without it every backup and restore fails.`,
    async () => {
      const { stdout } = await run(binary, ['version'], { timeout: 5000 });
      return stdout.trim().split('\n')[0] ?? '';
    },
  );
}

/**
 * A real call to the daemon behind every configured driver (the embedded drivers have none),
 * restic (the backups), and the free disk space. Each check answers within 5 s.
 */
export async function daemonChecks(config: AppConfig): Promise<DaemonCheck[]> {
  const checks: Promise<DaemonCheck>[] = [];
  if (config.dns.driver === 'powerdns') checks.push(powerDns(config));
  if (config.dns.driver === 'powerdns' && config.doctor.secondaries.length > 0)
    checks.push(
      nameServersInStep({
        apiUrl: String(config.dns.powerdnsApiUrl),
        apiKey: String(config.dns.powerdnsApiKey ?? ''),
        serverId: config.dns.powerdnsServerId,
        secondaries: config.doctor.secondaries,
      }),
    );
  if (config.mail.driver === 'dovecot') checks.push(dovecot(config), postfix(config));
  if (config.mail.dkimDriver === 'opendkim') checks.push(openDkim(config));
  if (config.mail.rspamdAddress) checks.push(rspamd(config.mail.rspamdAddress));
  if (config.hosting.ftpDriver === 'proftpd') checks.push(proftpd(config));
  if (config.web.driver === 'nginx') {
    const masters = Object.entries(phpMasters(config.web));
    checks.push(nginx(config), ...masters.map(([version, master]) => phpFpm(master.pidFile, version)));
  }
  if (config.databases.driver === 'mariadb') checks.push(mariadb(config));
  if (config.databases.phpmyadminKey && /^https?:\/\//.test(config.databases.phpmyadminUrl)) {
    checks.push(phpMyAdmin(config.databases.phpmyadminUrl));
  }
  checks.push(restic(config), disk(config));
  return Promise.all(checks);
}
