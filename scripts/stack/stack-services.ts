import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PowerDnsDriver } from '../../apps/server/src/drivers/dns/powerdns.driver.ts';
import { DEMO_SSL_HOST } from '../../apps/server/src/seed/demo-seed.ts';
import { execFileAsync, type Placement, startForeground, waitForPort } from '../daemons/daemon-harness.ts';
import { type MailDaemons, startMailDaemons } from '../daemons/mail.ts';
import { type PrivateMariaDb, startPrivateMariaDb } from '../daemons/mariadb.ts';
import { webIdentity } from '../daemons/nginx-php.ts';
import { type OpenDkim, startOpenDkim } from '../daemons/opendkim.ts';
import { type Pebble, startPebble } from '../daemons/pebble.ts';
import { type PhpMyAdmin, startPhpMyAdmin } from '../daemons/phpmyadmin.ts';
import { type PowerDns, startPowerDns } from '../daemons/powerdns.ts';
import { type ProFtpd, startProFtpd } from '../daemons/proftpd.ts';
import { type Roundcube, startRoundcube } from '../daemons/roundcube.ts';
import { type Rspamd, startRspamd } from '../daemons/rspamd.ts';
import { startWebServers, type WebServers } from '../daemons/web.ts';
import type { StackService } from './stack-state.ts';
import type { StackUidRange } from './stack-users.ts';

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
  httpsPort: number;
  imapsPort: number;
  /** Authenticated submission: STARTTLS, and implicit TLS. */
  submissionPort: number;
  submissionsPort: number;
  /** Pebble's ACME directory, and its management API (its root at /roots/0). */
  acmeDirectoryUrl: string;
  pebbleManagementUrl: string;
  mariadbPort: number;
  phpMyAdminUrl: string;
  webmailUrl: string;
  services: Record<string, StackService>;
  /** Stops everything it started, the last started first. */
  stop(): Promise<void>;
}

type StackPort =
  | 'panel'
  | 'ftp'
  | 'smtp'
  | 'phpmyadmin'
  | 'roundcube'
  | 'imap'
  | 'imaps'
  | 'submission'
  | 'submissions'
  | 'policy';

/**
 * The panel's configuration for this stack, as an operator's PANEL_CONFIG_FILE would hold it:
 * every driver real, every daemon the stack's.
 */
function panelConfig(values: {
  dir: string;
  pdns: PowerDns;
  web: WebServers;
  mariadb: PrivateMariaDb;
  ports: Record<StackPort, number>;
  keys: { webmail: string; phpmyadmin: string };
  mail: { root: string; doveadmConfig: string; tlsDir: string; postfixDir: string };
  opendkim: OpenDkim;
  rspamd: Rspamd;
  acme: { directoryUrl: string; caFile: string };
  serviceUsers: StackUidRange | undefined;
  nodeSync: boolean;
}) {
  const { dir, pdns, web, mariadb, ports, keys, mail, opendkim, rspamd, acme, serviceUsers, nodeSync } = values;
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
      // nginx listens on IPv4 loopback alone: an AAAA would send clients (and the CA) nowhere
      webIpv6: '',
      mailIpv4: HOST,
      // the demo zones are made from documentation values (.test names, loopback): a trial's
      allowPlaceholders: true,
    },
    // doctor's customer probes log in as the demo mailbox and FTP account (demo-*.seed.ts)
    doctor: {
      mailLogin: 'info@demo.test',
      mailPassword: 'panel247-mail',
      ftpLogin: 'web@demo.test',
      ftpPassword: 'panel247-ftp',
    },
    // certificates from the stack's Pebble: sites' automatic HTTPS, and the mail daemons'
    acme: {
      directoryUrl: acme.directoryUrl,
      directoryCaFile: acme.caFile,
      email: 'certs@demo.test',
      resolvers: [`${HOST}:${pdns.dnsPort}`],
      webAddresses: [HOST],
    },
    mailTls: { dir: mail.tlsDir, postfixConfigDir: mail.postfixDir },
    mailSending: { policyListen: `${HOST}:${ports.policy}` },
    registry: { resolvers: `${HOST}:${pdns.dnsPort}` },
    // as root each hosting service gets its own system user (stack-users.ts); else none
    ...(serviceUsers ? { serviceUsers: { driver: 'system', ...serviceUsers } } : {}),
    // without it no hourly safety net puts back what someone broke by hand (--no-node-sync)
    ...(nodeSync ? {} : { agent: { syncSeconds: 0 } }),
    mail: {
      driver: 'dovecot',
      root: mail.root,
      doveadmConfig: mail.doveadmConfig,
      webmailUrl: `http://${HOST}:${ports.roundcube}/`,
      smtpAddress: `${HOST}:${ports.smtp}`,
      imapPort: ports.imap,
      imapSslPort: ports.imaps,
      smtpPort: ports.submission,
      smtpSslPort: ports.submissions,
      webmailKey: keys.webmail,
      opendkimDir: opendkim.tablesDir,
      opendkimPidFile: opendkim.pidFile,
      opendkimUid: opendkim.uid,
      opendkimGid: opendkim.gid,
      rspamdAddress: rspamd.address,
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
  return { ...withoutPanelSettings(), PANEL_CONFIG_FILE: configFile };
}

function withoutPanelSettings(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PANEL_')));
}

/**
 * What `panel users sync` needs before any daemon of a kept stack is up: the panel's database, the
 * homes, the web group and the range, with no demo seed (it would call the daemons the
 * configuration file names). The same values as panelConfig's.
 */
function usersSyncEnvironment(dir: string, range: StackUidRange): NodeJS.ProcessEnv {
  const identity = webIdentity();
  return {
    ...withoutPanelSettings(),
    PANEL_DATA_DIR: path.join(dir, 'panel'),
    PANEL_SEED_DEMO: 'false',
    PANEL_LOG_LEVEL: 'warn',
    PANEL_HOSTING_ROOT: path.join(dir, 'homes'),
    PANEL_HOSTING_UID: String(identity.uid),
    PANEL_HOSTING_GID: String(identity.gid),
    PANEL_SERVICE_USERS_DRIVER: 'system',
    PANEL_SERVICE_UID_MIN: String(range.uidMin),
    PANEL_SERVICE_UID_MAX: String(range.uidMax),
  };
}

/** The panel's admin CLI (`npm run panel -- …`) with `env`; its output, or an error with all it said. */
async function panelCli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const answer = await execFileAsync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/panel.ts', ...args], {
    cwd: REPO,
    env,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`panel ${args.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  });
  return answer.stdout;
}

/** The stack's service users (as root): their uid range, and when a kept stack's are back. */
export interface StackServiceUsers {
  range: StackUidRange;
  /**
   * Settles once `panel users sync` made a kept stack's users again (a fresh stack's come with the
   * demo seed): `migrated` when a service got its first user (a stack kept from before them).
   */
  ready: Promise<{ migrated: boolean } | Error>;
}

/**
 * Starts `panel users sync` of a kept stack at once: its services get back the system users its
 * last stop removed (same names and numbers, from the panel's service_users), and their homes'
 * owner, group and mode; a stack kept from before (embedded driver) gets them for the first time.
 * About 2 s of CLI start, which the package check and the first daemons' start hide.
 */
export function restoreServiceUsers(dir: string, range: StackUidRange, log: (line: string) => void): StackServiceUsers {
  if (!existsSync(path.join(dir, 'panel', 'panel.sqlite')))
    return { range, ready: Promise.resolve({ migrated: false }) };
  const began = Date.now();
  const ready = panelCli(['users', 'sync', '--json'], usersSyncEnvironment(dir, range)).then(
    (stdout) => {
      log(`  users sync done (${((Date.now() - began) / 1000).toFixed(1)} s)`);
      const report = JSON.parse(stdout) as { users: { problems: string[]; repaired: boolean }[] };
      return { migrated: report.users.some((entry) => entry.repaired && entry.problems.includes('no_row')) };
    },
    (error: Error) => error,
  );
  return { range, ready };
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
 * With `serviceUsers` (as root) each hosting service runs as its own system user, and PHP-FPM
 * waits for a kept stack's to be back (restoreServiceUsers).
 * A failure stops what had started (the service users made are the caller's to remove).
 */
export async function startStack(
  dir: string,
  placement: Placement,
  log: (line: string) => void,
  options: {
    /** As root: each hosting service gets a system user with a uid in this range (stack-users.ts). */
    serviceUsers?: StackServiceUsers;
    /** The panel's hourly `node.sync` (every driver's sync, repairing files edited by hand); on unless false. */
    nodeSync?: boolean;
  } = {},
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
    // the service homes must be reachable by the pools' users through every folder above them;
    // the hosting root is root's 0755: every service passes, none writes in it
    const homes = path.join(dir, 'homes');
    mkdirSync(homes, { recursive: true });
    chmodSync(homes, 0o755);
    const panelDir = path.join(dir, 'panel');
    mkdirSync(panelDir, { recursive: true });
    const panelDatabase = path.join(panelDir, 'panel.sqlite');
    const serviceUsers = options.serviceUsers?.range;
    const ports: Record<StackPort, number> = {
      panel: await placement.port('panel.http'),
      phpmyadmin: await placement.port('phpmyadmin.http'),
      roundcube: await placement.port('roundcube.http'),
      ftp: await placement.port('proftpd.ftp'),
      smtp: await placement.port('postfix.smtp'),
      // what mail clients are told (autoconfig, connection data): the ports the harness gives its
      // daemons under these names
      imap: await placement.port('dovecot.imap'),
      imaps: await placement.port('dovecot.imaps'),
      submission: await placement.port('postfix.submission'),
      submissions: await placement.port('postfix.submissions'),
      // the panel's sending limit, asked by both submission services at DATA
      policy: await placement.port('panel.policy'),
    };
    const keys = { webmail: secret(), phpmyadmin: secret() };
    const panelUrl = `http://${HOST}:${ports.panel}`;
    const mailDir = path.join(dir, 'mail');
    // where the mail harness keeps each part (checked once the daemons run)
    const mail = {
      root: path.join(mailDir, 'mail'),
      doveadmConfig: path.join(mailDir, 'dovecot', 'dovecot.conf'),
      tlsDir: path.join(mailDir, 'tls'),
      postfixDir: path.join(mailDir, 'postfix'),
    };

    const pdns = await step('powerdns', () => startPowerDns(placement));
    const mariadb = await step('mariadb', () => startPrivateMariaDb(placement));
    const opendkim: OpenDkim = await step('opendkim', () => startOpenDkim(placement));
    // the mailboxes' spam filter asks it at delivery
    const rspamd: Rspamd = await step('rspamd', () => startRspamd(placement));
    // a kept stack's users are back before PHP-FPM loads the last run's pools, which run as them
    const users = (await options.serviceUsers?.ready) ?? { migrated: false };
    if (users instanceof Error) throw users;
    const web = await step('nginx + php-fpm', () => startWebServers(placement));
    const pebble: Pebble = await step('pebble', () =>
      startPebble({ httpPort: web.httpPort, dnsServer: `${HOST}:${pdns.dnsPort}` }, placement),
    );
    const acme = { directoryUrl: pebble.directoryUrl, caFile: path.join(panelDir, 'pebble-listener.pem') };
    writeFileSync(acme.caFile, pebble.listenerCaPem);
    await publishProviderZone(pdns);
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

    const configFile = path.join(panelDir, 'panel247.json');
    writeFileSync(
      configFile,
      `${JSON.stringify(panelConfig({ dir, pdns, web, mariadb, ports, keys, mail, opendkim, rspamd, acme, serviceUsers, nodeSync: options.nodeSync ?? true }), null, 2)}\n`,
      { mode: 0o600 },
    );
    await step('panel', async () => {
      const panel = startForeground(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: REPO,
        env: { ...panelEnvironment(configFile), HOST, PORT: String(ports.panel) },
      });
      // a panel that exits at start (a refused configuration, a clash of the seed's users) says
      // why at once, not after the minute it may take to come up
      const exited = new Promise<never>((_, reject) =>
        panel.process.once('exit', (code, signal) => reject(new Error(`it exited (${signal ?? code})`))),
      );
      exited.catch(() => undefined);
      try {
        await Promise.race([waitForPort(ports.panel, 60_000), exited]);
      } catch (error) {
        await panel.stop();
        const clash = serviceUsers && panel.output().includes('hosting.error.service_user');
        throw new Error(
          `the panel did not start: ${(error as Error).message}\n${panel.output()}` +
            (clash
              ? '\nA service user of the stack clashes with a system account it did not make, which it leaves ' +
                'alone: another panel or stack on this machine? Stop that one first (npm run stack -- down --dir …).'
              : ''),
        );
      }
      return { processes: () => ({ panel: panel.process.pid }), stop: () => panel.stop() };
    });

    // the demo's sites (and any a restore brought back) served by nginx before anyone asks, with
    // their pools as their services' users
    const synced = Date.now();
    await panelCli(['web', 'sync'], panelEnvironment(configFile));
    log(`  web sync done (${((Date.now() - synced) / 1000).toFixed(1)} s)`);
    if (users.migrated) {
      // services that just got their first user: their FTP accounts log in, and their folders
      // belong, to it from now on (ProFTPD's copy of the accounts rewritten)
      await panelCli(['ftp', 'sync'], panelEnvironment(configFile));
      log('  ftp sync done (the services moved to users of their own)');
    }

    // the daemons that read the panel's SQLite database, now that it exists
    const mailDaemons: MailDaemons = await step('postfix + dovecot', () =>
      // every message Postfix takes passes OpenDKIM, which signs the panel's mail domains
      startMailDaemons({ kind: 'sqlite', file: panelDatabase }, placement, {
        postfixMainCf: opendkim.postfixMainCf,
        policyService: `inet:${HOST}:${ports.policy}`,
        spamScanner: rspamd.address,
      }),
    );
    for (const [name, port] of Object.entries({
      imap: mailDaemons.imapPort,
      imaps: mailDaemons.imapsPort,
      submission: mailDaemons.submissionPort,
      submissions: mailDaemons.submissionsPort,
    })) {
      if (port !== ports[name as StackPort]) throw new Error(`the mail harness moved ${name} to ${port}`);
    }
    if (mailDaemons.mailRoot !== mail.root) throw new Error(`the mail folder moved: ${mailDaemons.mailRoot}`);
    if (mailDaemons.tlsDir !== mail.tlsDir) throw new Error(`the mail TLS folder moved: ${mailDaemons.tlsDir}`);
    // the mail host's certificate from this start's Pebble (a new root at every start: what the
    // last run installed chains to a root no client has now), replacing the harness's self-signed one
    const ordered = Date.now();
    await panelCli(['certs', 'renew', '--site', DEMO_SSL_HOST], panelEnvironment(configFile)).then(
      () =>
        log(`  mail certificate for ${DEMO_SSL_HOST} from pebble (${((Date.now() - ordered) / 1000).toFixed(1)} s)`),
      (error: Error) => log(`  panel certs renew --site ${DEMO_SSL_HOST} did not succeed: ${error.message}`),
    );
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
    services['nginx-https'] = { pids: pidsOf('nginx'), address: address(web.httpsPort) };
    services['dovecot-imaps'] = { pids: pidsOf('dovecot'), address: address(mailDaemons.imapsPort) };
    services['postfix-submission'] = { pids: pidsOf('postfix'), address: address(mailDaemons.submissionPort) };
    services['postfix-submissions'] = { pids: pidsOf('postfix'), address: address(mailDaemons.submissionsPort) };
    services.pebble = { pids: pidsOf('pebble'), address: address(Number(new URL(pebble.directoryUrl).port)) };
    services['pebble-management'] = {
      pids: pidsOf('pebble'),
      address: address(Number(new URL(pebble.managementUrl).port)),
    };
    services['php-fpm'] = { pids: pidsOf('php-fpm'), address: address(web.httpPort) };
    services.mariadb = { pids: pidsOf('mariadb'), address: address(mariadb.port) };
    services.phpmyadmin = { pids: pidsOf('phpmyadmin', 'phpmyadmin-php-fpm'), address: address(ports.phpmyadmin) };
    services.roundcube = { pids: pidsOf('roundcube', 'roundcube-php-fpm'), address: address(ports.roundcube) };

    return {
      panelUrl,
      dnsPort: pdns.dnsPort,
      imapPort: mailDaemons.imapPort,
      smtpPort: mailDaemons.smtpPort,
      ftpPort: ftpd.port,
      httpPort: web.httpPort,
      httpsPort: web.httpsPort,
      imapsPort: mailDaemons.imapsPort,
      submissionPort: mailDaemons.submissionPort,
      submissionsPort: mailDaemons.submissionsPort,
      acmeDirectoryUrl: pebble.directoryUrl,
      pebbleManagementUrl: pebble.managementUrl,
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

/**
 * The demo provider's own zone (demohosting.test) on the stack's PowerDNS, beside the customers'
 * zones the panel publishes: its SSL host, which mail clients are given, resolves to the stack, and
 * its certificate is proved by DNS-01 in it (see the mail certificates in docs/OPERATIONS.md).
 */
async function publishProviderZone(pdns: PowerDns): Promise<void> {
  const dns = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
  const zone = DEMO_SSL_HOST.slice(DEMO_SSL_HOST.indexOf('.') + 1);
  await dns.ensureZone(zone, ['ns1.panel247.test.', 'ns2.panel247.test.']);
  await dns.replaceRRsets(zone, [{ name: `${DEMO_SSL_HOST}.`, type: 'A', ttl: 300, contents: [HOST] }]);
}
