import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileAsync, type Placement, startForeground, waitForPort } from '../daemons/daemon-harness.ts';
import { type MailDaemons, startMailDaemons } from '../daemons/mail.ts';
import { type PrivateMariaDb, startPrivateMariaDb } from '../daemons/mariadb.ts';
import { webIdentity } from '../daemons/nginx-php.ts';
import { type OpenDkim, startOpenDkim } from '../daemons/opendkim.ts';
import { type PhpMyAdmin, startPhpMyAdmin } from '../daemons/phpmyadmin.ts';
import { type PowerDns, startPowerDns } from '../daemons/powerdns.ts';
import { type ProFtpd, startProFtpd } from '../daemons/proftpd.ts';
import { type Roundcube, startRoundcube } from '../daemons/roundcube.ts';
import { startWebServers, type WebServers } from '../daemons/web.ts';
import type { StackService } from './stack-state.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const HOST = '127.0.0.1';

/** Something the stack started and stops again. */
interface Part {
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

export interface RunningStack {
  panelUrl: string;
  dnsPort: number;
  imapPort: number;
  smtpPort: number;
  ftpPort: number;
  httpPort: number;
  mariadbPort: number;
  phpMyAdminUrl: string;
  webmailUrl: string;
  services: Record<string, StackService>;
  /** Stops everything it started, the last started first. */
  stop(): Promise<void>;
}

/**
 * The panel's configuration for this stack, as an operator's PANEL_CONFIG_FILE would hold it:
 * every driver real, every daemon the stack's.
 */
function panelConfig(values: {
  dir: string;
  pdns: PowerDns;
  web: WebServers;
  mariadb: PrivateMariaDb;
  ports: { panel: number; ftp: number; smtp: number; phpmyadmin: number; roundcube: number };
  keys: { webmail: string; phpmyadmin: string };
  mail: { root: string; doveadmConfig: string };
  opendkim: OpenDkim;
}) {
  const { dir, pdns, web, mariadb, ports, keys, mail, opendkim } = values;
  const identity = webIdentity();
  const options = web.driverOptions;
  const php = options.php['8.2'];
  return {
    dataDir: path.join(dir, 'panel'),
    seedDemo: true,
    logLevel: 'warn',
    dns: {
      driver: 'powerdns',
      powerdnsApiUrl: pdns.apiUrl,
      powerdnsApiKey: pdns.apiKey,
      webIpv4: HOST,
      mailIpv4: HOST,
    },
    registry: { resolvers: `${HOST}:${pdns.dnsPort}` },
    mail: {
      driver: 'dovecot',
      root: mail.root,
      doveadmConfig: mail.doveadmConfig,
      webmailUrl: `http://${HOST}:${ports.roundcube}/`,
      smtpAddress: `${HOST}:${ports.smtp}`,
      webmailKey: keys.webmail,
      opendkimDir: opendkim.tablesDir,
      opendkimPidFile: opendkim.pidFile,
      opendkimUid: opendkim.uid,
      opendkimGid: opendkim.gid,
    },
    hosting: {
      root: path.join(dir, 'homes'),
      ftpDriver: 'proftpd',
      ftpUsersFile: path.join(dir, 'panel', 'ftp-users.sqlite'),
      ftpHost: HOST,
      ftpPort: ports.ftp,
      ...(identity.asRoot ? { uid: identity.uid, gid: identity.gid } : {}),
    },
    databases: {
      driver: 'mariadb',
      url: mariadb.adminUrl,
      host: HOST,
      port: mariadb.port,
      phpmyadminUrl: `http://${HOST}:${ports.phpmyadmin}/phpmyadmin/panel247-signon.php`,
      phpmyadminKey: keys.phpmyadmin,
    },
    web: {
      driver: 'nginx',
      configDir: options.configDir,
      logDir: options.logDir,
      templatesDir: options.templatesDir,
      httpListen: options.httpListen,
      httpsListen: options.httpsListen,
      phpSockets: options.phpSockets,
      phpBinaries: { '8.2': php?.binary },
      phpConfigs: { '8.2': php?.config },
      phpPidFiles: { '8.2': php?.pidFile },
      phpUser: identity.asRoot ? identity.user : options.phpUser,
      phpGroup: identity.asRoot ? identity.group : options.phpGroup,
      nginxUser: identity.asRoot ? identity.user : options.nginxUser,
      nginxBinary: options.nginxBinary,
      nginxPrefix: options.nginxPrefix,
      nginxConf: options.nginxConf,
      nginxErrorLog: options.nginxErrorLog,
      nginxPidFile: options.nginxPidFile,
    },
  };
}

/**
 * The environment the stack's panel and CLI run with: the caller's, without its own `PANEL_*`
 * settings (a PANEL_DATABASE_URL or PANEL_DATA_DIR of the shell would override the stack's
 * configuration file and point the panel elsewhere), plus that file.
 */
function panelEnvironment(configFile: string): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith('PANEL_'));
  return { ...Object.fromEntries(inherited), PANEL_CONFIG_FILE: configFile };
}

/**
 * A key a sign-on application shares with the panel: new at each start, since both sides are
 * configured anew then.
 */
function secret(): string {
  return randomBytes(24).toString('hex');
}

/**
 * Starts every daemon of the stack from the deploy/ templates, then the panel with the real
 * drivers, in the order their dependencies need: PowerDNS, MariaDB, nginx + PHP-FPM and
 * phpMyAdmin first (the panel writes to them as it seeds the demo), the panel, then the daemons
 * that read the panel's database (Postfix + Dovecot, ProFTPD) and Roundcube (which needs Dovecot).
 * A failure stops what had started.
 */
export async function startStack(
  dir: string,
  placement: Placement,
  log: (line: string) => void,
): Promise<RunningStack> {
  const parts: Part[] = [];
  const stop = async () => {
    for (const part of [...parts].reverse()) await part.stop().catch(() => undefined);
  };
  const step = async <T extends Part>(name: string, start: () => Promise<T>): Promise<T> => {
    const began = Date.now();
    const started = await start();
    parts.push(started);
    log(`  ${name} started (${((Date.now() - began) / 1000).toFixed(1)} s)`);
    return started;
  };
  try {
    // the daemons' own users (mysql, www-data, dovecot's mail user) pass through the state folder
    chmodSync(dir, 0o755);
    const ports = {
      panel: await placement.port('panel.http'),
      phpmyadmin: await placement.port('phpmyadmin.http'),
      roundcube: await placement.port('roundcube.http'),
      ftp: await placement.port('proftpd.ftp'),
      smtp: await placement.port('postfix.smtp'),
    };
    const keys = { webmail: secret(), phpmyadmin: secret() };
    const panelUrl = `http://${HOST}:${ports.panel}`;
    const mailDir = path.join(dir, 'mail');
    const mail = { root: path.join(mailDir, 'mail'), doveadmConfig: path.join(mailDir, 'dovecot', 'dovecot.conf') };

    const pdns = await step('powerdns', () => startPowerDns(placement));
    const mariadb = await step('mariadb', () => startPrivateMariaDb(placement));
    const opendkim: OpenDkim = await step('opendkim', () => startOpenDkim(placement));
    const web = await step('nginx + php-fpm', () => startWebServers(placement));
    const pma: PhpMyAdmin = await step('phpmyadmin', () =>
      startPhpMyAdmin(
        {
          redeemUrl: `${panelUrl}/p247/phpmyadmin/redeem/`,
          key: keys.phpmyadmin,
          dbHost: HOST,
          dbPort: mariadb.port,
          signonUrl: `${panelUrl}/`,
        },
        placement,
      ),
    );

    // the service homes must be reachable by the pools' user through every folder above them
    const homes = path.join(dir, 'homes');
    mkdirSync(homes, { recursive: true });
    chmodSync(homes, 0o755);
    const panelDir = path.join(dir, 'panel');
    mkdirSync(panelDir, { recursive: true });
    const configFile = path.join(panelDir, 'panel247.json');
    writeFileSync(
      configFile,
      `${JSON.stringify(panelConfig({ dir, pdns, web, mariadb, ports, keys, mail, opendkim }), null, 2)}\n`,
      { mode: 0o600 },
    );
    await step('panel', async () => {
      const panel = startForeground(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: REPO,
        env: { ...panelEnvironment(configFile), HOST, PORT: String(ports.panel) },
      });
      try {
        await waitForPort(ports.panel, 60_000);
      } catch (error) {
        await panel.stop();
        throw new Error(`the panel did not start: ${(error as Error).message}\n${panel.output()}`);
      }
      return { processes: () => ({ panel: panel.process.pid }), stop: () => panel.stop() };
    });

    // the demo's sites (and any a restore brought back) served by nginx before anyone asks
    const synced = Date.now();
    await execFileAsync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/panel.ts', 'web', 'sync'], {
      cwd: REPO,
      env: panelEnvironment(configFile),
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`panel web sync failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
    log(`  web sync done (${((Date.now() - synced) / 1000).toFixed(1)} s)`);

    // the daemons that read the panel's SQLite database, now that it exists
    const panelDatabase = path.join(panelDir, 'panel.sqlite');
    const mailDaemons: MailDaemons = await step('postfix + dovecot', () =>
      // every message Postfix takes passes OpenDKIM, which signs the panel's mail domains
      startMailDaemons({ kind: 'sqlite', file: panelDatabase }, placement, { postfixMainCf: opendkim.postfixMainCf }),
    );
    if (mailDaemons.mailRoot !== mail.root) throw new Error(`the mail folder moved: ${mailDaemons.mailRoot}`);
    const ftpd: ProFtpd = await step('proftpd', () =>
      startProFtpd({ kind: 'sqlite', file: path.join(panelDir, 'ftp-users.sqlite') }, placement),
    );
    const roundcube: Roundcube = await step('roundcube', () =>
      startRoundcube(
        {
          imapPort: mailDaemons.imapPort,
          redeemUrl: `${panelUrl}/p247/webmail/redeem/`,
          webmailKey: keys.webmail,
          masterUser: mailDaemons.masterUser,
          masterPassword: mailDaemons.masterPassword,
        },
        placement,
      ),
    );

    const address = (port: number) => `${HOST}:${port}`;
    const services: Record<string, StackService> = {};
    const pidsOf = (...names: string[]) =>
      parts
        .flatMap((part) => Object.entries(part.processes()))
        .filter(([name, pid]) => names.includes(name) && pid !== undefined)
        .map(([, pid]) => pid as number);
    services.panel = { pids: pidsOf('panel'), address: address(ports.panel) };
    services.powerdns = { pids: pidsOf('powerdns'), address: address(pdns.dnsPort) };
    services.postfix = { pids: pidsOf('postfix'), address: address(mailDaemons.smtpPort) };
    services.dovecot = { pids: pidsOf('dovecot'), address: address(mailDaemons.imapPort) };
    services.opendkim = { pids: pidsOf('opendkim'), address: address(opendkim.port) };
    services.proftpd = { pids: pidsOf('proftpd'), address: address(ftpd.port) };
    services.nginx = { pids: pidsOf('nginx'), address: address(web.httpPort) };
    services['php-fpm'] = { pids: pidsOf('php-fpm'), address: address(web.httpPort) };
    services.mariadb = { pids: pidsOf('mariadb'), address: address(mariadb.port) };
    services.phpmyadmin = { pids: pidsOf('phpmyadmin', 'phpmyadmin-php-fpm'), address: address(ports.phpmyadmin) };
    services.roundcube = { pids: pidsOf('roundcube'), address: address(ports.roundcube) };

    return {
      panelUrl,
      dnsPort: pdns.dnsPort,
      imapPort: mailDaemons.imapPort,
      smtpPort: mailDaemons.smtpPort,
      ftpPort: ftpd.port,
      httpPort: web.httpPort,
      mariadbPort: mariadb.port,
      phpMyAdminUrl: pma.baseUrl,
      webmailUrl: roundcube.url,
      services,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
