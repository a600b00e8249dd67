import { readFileSync } from 'node:fs';
import path from 'node:path';
import { INVITATION_DEFAULT_HOURS } from '@panel247/contract/account-users';
import { DEFAULT_BASE_PATH, LANGUAGES } from '@panel247/contract/constants';
import { DEFAULT_RECORD_TEMPLATES, defaultRecordProblems } from '@panel247/contract/dns-default-records';
import { z } from 'zod';
import { translate } from './i18n/messages.ts';
import { CHANNEL_URL_PATTERN, NODE_NAME_PATTERN } from './modules/nodes/node-rules.ts';
import { repoPath } from './paths.ts';

/**
 * The one configuration of the server: an optional JSON file (PANEL_CONFIG_FILE) overlaid by
 * PANEL_* variables (and PORT/HOST). Every problem is collected and reported at once.
 */

const bool = z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])]).transform((value) => {
  return value === true || value === 'true' || value === '1' || value === 'yes';
});
const positiveNumber = z.coerce.number().positive();
/** A map given as a record, or in the environment as `8.2=/a,8.3=/b`. */
const mapOf = z.union([
  z.record(z.string(), z.string()),
  z.string().transform((value) =>
    Object.fromEntries(
      value
        .split(',')
        .filter(Boolean)
        .map((pair) => {
          const at = pair.indexOf('=');
          return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
        }),
    ),
  ),
]);

/** host:port, the host a name, an IPv4 address or an IPv6 address in brackets. */
const hostPortSchema = z.string().regex(/^(?:[A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}$/, 'host:port');

export const configSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65535).default(8247),
  basePath: z
    .string()
    .regex(/^\/([a-z0-9_-]+\/)+$/, 'must look like /p247/ (lower-case segments, leading and trailing slash)')
    .default(DEFAULT_BASE_PATH),
  dataDir: z.string().min(1).default('./data'),
  /** postgres://… selects PostgreSQL; empty keeps the embedded SQLite file in dataDir. */
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** PostgreSQL only: connections each instance keeps in its pool. */
  databasePoolSize: z.coerce.number().int().min(1).max(200).default(20),
  /** PostgreSQL only: prepare each query shape once per connection (off behind PgBouncer < 1.21). */
  databasePreparedStatements: bool.default(true),
  /** 64 hex characters; generated into dataDir/secret.key when absent. */
  secretKey: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hexadecimal characters (32 bytes)')
    .optional(),
  seedDemo: bool.optional(),
  webDist: z.string().optional(),
  /**
   * Draw a signed-in page's first screen on the server (the web build's dist/server renderer, in a
   * worker thread), so its rows show before the app's code has run. Off: the app draws every page.
   */
  serverRender: bool.default(true),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  trustProxy: bool.default(false),
  /** Extra origins accepted by the CSRF check besides the request's own host. */
  allowedOrigins: z.array(z.url()).default([]),
  /**
   * The origins (https://panel.example) where passkeys are registered and used; the relying
   * party id is the origin's host. Empty: the request's own origin (its Host, and the scheme the
   * proxy reports under trustProxy).
   */
  passkeyOrigins: z.array(z.url()).default([]),
  defaultLanguage: z.enum(LANGUAGES).default('es'),
  session: z
    .object({
      idleMinutes: positiveNumber.default(30),
      absoluteHours: positiveNumber.default(12),
      /**
       * Seconds a looked-up session or permission list is reused without the database; changes
       * made through the panel (or, on PostgreSQL, anywhere) drop them at once. 0 turns it off.
       */
      cacheSeconds: z.coerce.number().int().min(0).max(60).default(5),
    })
    .prefault({}),
  apiTokens: z
    .object({
      /** Days an expired API token stays listed (marked expired) before the hourly purge deletes it. */
      purgeDays: z.coerce.number().int().min(0).max(3650).default(30),
    })
    .prefault({}),
  agent: z
    .object({
      /**
       * `embedded`: this process is also its machine's node agent (it applies web changes and
       * publishes zones itself); `separate`: an agent of its own (`npm run agent`) does, and this
       * process only sends the work.
       */
      mode: z.enum(['embedded', 'separate']).default('embedded'),
      /**
       * Which of the provider's servers this agent is (`panel node add`), and the key it proves
       * it with; none: the panel's own machine, as on a one-server panel.
       */
      node: z
        .string()
        .default('')
        .refine((text) => text === '' || NODE_NAME_PATTERN.test(text), 'expected a server name'),
      nodeKey: z.string().default(''),
      /** How often the node runs every driver's sync as a safety net (0: never). */
      syncSeconds: z.coerce.number().int().min(0).default(3600),
      /**
       * The node channel: where the agent listens and the instances (separate) reach it for what
       * only the server holds (the file manager, a home's or a mailbox's size, a site's error log,
       * a database's dump). `http://host:port`, on a private network: the agent listens on that
       * host and port.
       */
      url: z
        .string()
        .default('')
        .refine((text) => text === '' || CHANNEL_URL_PATTERN.test(text), 'expected http://host:port'),
    })
    .prefault({}),
  activity: z
    .object({
      /** Days the activity log keeps an entry (0: forever). */
      retentionDays: z.coerce.number().int().min(0).max(36_500).default(365),
      /** How often each instance removes what is past that (seconds; 0: never). */
      purgeSeconds: z.coerce.number().int().min(0).max(604_800).default(3600),
    })
    .prefault({}),
  users: z
    .object({
      /** Hours an invitation's link works (a new user sets their password with it). */
      invitationHours: z.coerce.number().int().min(1).max(720).default(INVITATION_DEFAULT_HOURS),
    })
    .prefault({}),
  captcha: z
    .object({
      provider: z.enum(['altcha', 'recaptcha', 'hcaptcha', 'turnstile', 'none']).default('altcha'),
      siteKey: z.string().default(''),
      secret: z.string().default(''),
      /** Overrides the provider's siteverify URL (a proxy, or a loopback stand-in in tests). */
      verifyUrl: z.url().optional(),
      /** ALTCHA proof-of-work difficulty: the largest number the client may have to try. */
      altchaMaxNumber: z.coerce.number().int().min(1000).max(10_000_000).default(100_000),
    })
    // On the captcha block itself, so it is reported even when other settings are wrong too.
    .superRefine((captcha, ctx) => {
      if (captcha.provider !== 'altcha' && captcha.provider !== 'none' && !captcha.secret) {
        ctx.addIssue({ code: 'custom', path: ['secret'], message: `required for ${captcha.provider}` });
      }
    })
    .prefault({}),
  limits: z
    .object({
      loginPerAccount: z.coerce.number().int().positive().default(5),
      loginPerIp: z.coerce.number().int().positive().default(20),
      loginWindowMinutes: positiveNumber.default(15),
      formsPerIp: z.coerce.number().int().positive().default(5),
      formsWindowMinutes: positiveNumber.default(60),
      /**
       * A connection that sends nothing (or stops sending mid-request) for this long is closed:
       * idle sockets must not pile up (slow-loris). WebSockets are not affected.
       */
      idleSocketSeconds: positiveNumber.default(30),
      /** The most time a request's headers, and the whole request, may take to arrive. */
      headersSeconds: positiveNumber.default(20),
      requestSeconds: positiveNumber.default(60),
      /** How long a kept-alive connection waits for its next request (keep it above a proxy's). */
      keepAliveSeconds: positiveNumber.default(65),
      /** Open connections one address may hold at once (0: no cap; behind a proxy all share its address). */
      connectionsPerAddress: z.coerce.number().int().min(0).default(256),
    })
    .prefault({}),
  dns: z
    .object({
      /** `database`: the zone lives in the panel only; `powerdns`: every change goes to PowerDNS. */
      driver: z.enum(['database', 'powerdns']).default('database'),
      powerdnsApiUrl: z.url().optional(),
      powerdnsApiKey: z.string().default(''),
      /** How long a PowerDNS API call may take before the panel stops waiting for its answer. */
      powerdnsTimeoutSeconds: z.coerce.number().min(0.5).max(60).default(5),
      powerdnsServerId: z
        .string()
        .regex(/^[a-z0-9._-]+$/i)
        .default('localhost'),
      /**
       * `native`: the zones live in this PowerDNS alone (or in a database its other servers
       * share); `primary`: it is the primary of secondary name servers, which take every zone by
       * AXFR when it NOTIFYs them (deploy/powerdns/primary.conf.template; docs/OPERATIONS.md).
       */
      powerdnsZoneKind: z.enum(['native', 'primary']).default('native'),
      /** The provider's name servers: the apex NS records of every zone. */
      nameservers: z
        .union([z.array(z.string()), z.string().transform((value) => value.split(',').filter(Boolean))])
        .default(['ns1.panel247.test', 'ns2.panel247.test']),
      /**
       * Seconds between the checks of a zone after a change the server did not confirm (a hung
       * server may apply it late), and how often the zones still to publish get their job again
       * (rounded to whole minutes, at least one); 0 turns that round off.
       */
      republishSeconds: z.coerce.number().int().min(0).max(3600).default(10),
      /**
       * How long a DNS change's call waits for the server to confirm it before it answers that
       * the change is being applied (the work log keeps publishing it).
       */
      publishWaitSeconds: z.coerce.number().min(0).max(60).default(10),
      /** TTL used for records whose ttl is 0 ("default"). */
      defaultTtl: z.coerce.number().int().min(60).max(604_800).default(3600),
      /** Addresses the restored default records point at (the provider's web and mail servers). */
      webIpv4: z.string().default('192.0.2.10'),
      webIpv6: z.string().default('2001:db8::10'),
      mailIpv4: z.string().default('192.0.2.25'),
      /** Host names of the provider's web and mail servers, for {web_host} and {mail_host}. */
      webHost: z.string().default(''),
      mailHost: z.string().default(''),
      /**
       * The unnamed machine's databases address and host name, for {databases_ipv4} and
       * {databases_host} (none by default: applications there reach MariaDB on the machine itself).
       */
      databasesIpv4: z.string().default(''),
      databasesHost: z.string().default(''),
      /**
       * Zone import by AXFR from another name server: off, on (public addresses only), or any
       * (also loopback and private networks: a provider whose customers' old servers are inside).
       */
      importAxfr: z.enum(['off', 'on', 'any']).default('off'),
      /** A zone's history keeps its newest this many change sets… */
      historyKeep: z.coerce.number().int().min(1).max(100_000).default(500),
      /** …and none older than this many days (0: no age limit). */
      historyDays: z.coerce.number().int().min(0).max(36_500).default(365),
      /** For {spf_include}: the provider's SPF record every customer's SPF includes. */
      spfInclude: z.string().default('spf.panel247.test'),
      /** For {dmarc_report}: where DMARC aggregate reports of the customers' domains go. */
      dmarcReport: z.string().default('dmarc-reports@panel247.test'),
      /**
       * The defaults above are documentation values (192.0.2.0/24, 2001:db8::/32, .test names):
       * under NODE_ENV=production the server refuses to start while one of them would reach a
       * customer's zone (dns-placeholders.ts), unless this says a trial may.
       */
      allowPlaceholders: bool.default(false),
      /**
       * The provider's default records (a JSON list in the file, or in PANEL_DNS_DEFAULT_RECORDS):
       * {zona, type, value, priority?, ttl?, eliminable?}, the value with placeholders (see
       * packages/contract/src/dns-default-records.ts). Each is checked like a record typed in the panel.
       */
      defaultRecords: z
        .preprocess(
          (value, ctx) => {
            if (typeof value !== 'string') return value;
            try {
              return JSON.parse(value);
            } catch (error) {
              ctx.issues.push({ code: 'custom', message: `not JSON: ${(error as Error).message}`, input: value });
              return value;
            }
          },
          z.array(
            z
              .object({
                zona: z.string().default(''),
                type: z.string(),
                value: z.string().min(1),
                priority: z.number().int().optional(),
                ttl: z.number().int().optional(),
                eliminable: z.boolean().optional(),
              })
              .strict(),
          ),
        )
        .default(DEFAULT_RECORD_TEMPLATES),
    })
    .superRefine((dns, ctx) => {
      if (dns.driver === 'powerdns' && !dns.powerdnsApiUrl) {
        ctx.addIssue({ code: 'custom', path: ['powerdnsApiUrl'], message: 'required for the powerdns driver' });
      }
      for (const problem of defaultRecordProblems(dns.defaultRecords, dns)) {
        const message =
          'unknownPlaceholders' in problem
            ? `unknown placeholder ${problem.unknownPlaceholders.map((name) => `{${name}}`).join(', ')}`
            : `${problem.record} ${problem.field}: ${translate('en', problem.messageKey)}`;
        ctx.addIssue({ code: 'custom', path: ['defaultRecords', problem.index], message });
      }
    })
    .prefault({}),
  mail: z
    .object({
      /** Maildirs live in <root>/<domain>/<local part> (Dovecot's mail_home, see deploy/dovecot). */
      root: z.string().optional(),
      defaultQuotaMb: z.coerce.number().int().positive().default(1024),
      /** The plan's largest mailbox. */
      maxQuotaMb: z.coerce.number().int().positive().default(10240),
      /** What happens to a deleted mailbox's mail: removed at once, or kept aside for keepDays. */
      deleteMode: z.enum(['remove', 'keep']).default('keep'),
      keepDays: z.coerce.number().int().min(1).default(30),
      /**
       * `embedded` (the maildirs only) or `dovecot` (the maildirs, and doveadm against the running
       * Dovecot). Left out: `dovecot` when doveadmConfig is set, else `embedded`.
       */
      driver: z.enum(['embedded', 'dovecot']).optional(),
      /** dovecot.conf of the running Dovecot, so password changes flush its auth cache. */
      doveadmConfig: z.string().optional(),
      /** The brand's WebMail when the brand names none; it redeems tokens at /p247/webmail/redeem/. */
      webmailUrl: z.string().default('/webmail/'),
      /** Where Postfix takes mail (host:port): `panel doctor` reads its SMTP greeting there. */
      smtpAddress: z
        .string()
        .regex(/^(?:[A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}$/)
        .default('127.0.0.1:25'),
      /** rspamd's scanner (host:port) that the spam filter's program asks: `panel doctor` checks it answers. */
      rspamdAddress: z
        .string()
        .regex(/^(?:[A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}$/)
        .optional(),
      /** Shared with the WebMail: proves a token redemption comes from it. 32+ characters. */
      webmailKey: z.string().min(32).optional(),
      /**
       * The ports mail clients connect to (the connection data, autoconfig, autodiscover and the
       * .mobileconfig): IMAP and SMTP submission without SSL on the domain's hosts, with SSL
       * (implicit TLS) on the brand's SSL host.
       */
      imapPort: z.coerce.number().int().min(1).max(65535).default(143),
      imapSslPort: z.coerce.number().int().min(1).max(65535).default(993),
      smtpPort: z.coerce.number().int().min(1).max(65535).default(587),
      smtpSslPort: z.coerce.number().int().min(1).max(65535).default(465),
      /**
       * The DKIM signer: `embedded` (keys kept in the panel only) or `opendkim` (the panel writes
       * OpenDKIM's KeyTable, SigningTable and key files in opendkimDir; see deploy/opendkim).
       */
      dkimDriver: z.enum(['embedded', 'opendkim']).optional(),
      opendkimDir: z.string().optional(),
      /** OpenDKIM's PidFile (default <opendkimDir>/opendkim.pid): the panel signals it to reread its tables. */
      opendkimPidFile: z.string().optional(),
      /** Owner of the key files (OpenDKIM's user) when the panel runs as root. */
      opendkimUid: z.coerce.number().int().min(0).optional(),
      opendkimGid: z.coerce.number().int().min(0).optional(),
      /** How long a rotated-out DKIM key's record stays published (mail signed with it may still be in transit). */
      dkimRetireSeconds: z.coerce
        .number()
        .int()
        .min(0)
        .default(7 * 86_400),
    })
    .superRefine((mail, ctx) => {
      if (mail.driver === 'dovecot' && !mail.doveadmConfig) {
        ctx.addIssue({ code: 'custom', path: ['doveadmConfig'], message: 'required for the dovecot driver' });
      }
      if (mail.dkimDriver === 'opendkim' && !mail.opendkimDir) {
        ctx.addIssue({ code: 'custom', path: ['opendkimDir'], message: 'required for the opendkim driver' });
      }
    })
    .prefault({}),
  hosting: z
    .object({
      /** Service homes live in <root>/<domain> (FTP accounts and sites are folders inside). */
      root: z.string().optional(),
      /** Owner of uploaded files: the web server's user, so sites can read them. */
      uid: z.coerce.number().int().min(1).default(33),
      gid: z.coerce.number().int().min(1).default(33),
      ftpPort: z.coerce.number().int().min(1).max(65535).default(21),
      /** ProFTPD's SFTP server (mod_sftp, the template's SFTP_PORT): the port the FTP page shows. */
      sftpPort: z.coerce.number().int().min(1).max(65535).default(2222),
      /**
       * On SQLite: a file the panel keeps with a copy of ftp_users_view for ProFTPD to read
       * (see drivers/ftp/ftp-users-copy.ts). Not needed on PostgreSQL.
       */
      ftpUsersFile: z.string().optional(),
      /**
       * `embedded` (the accounts' home folders only) or `proftpd` (the home folders, and on SQLite
       * the copy in ftpUsersFile). Left out: `proftpd` when ftpUsersFile is set, else `embedded`.
       */
      ftpDriver: z.enum(['embedded', 'proftpd']).optional(),
      /** Where the WebFTP's server reaches ProFTPD (it redeems tokens at /p247/webftp/redeem/). */
      ftpHost: z.string().default('127.0.0.1'),
      /** The brand's WebFTP when the brand names none. */
      webftpUrl: z.string().default('/webftp/'),
      /** Shared with the WebFTP: proves a token redemption comes from it. 32+ characters. */
      webftpKey: z.string().min(32).optional(),
      /** The plan's limits shown in the service overview, in MiB: web space, monthly traffic, databases' space. */
      webSpaceMb: z.coerce.number().int().min(0).default(10_240),
      trafficMb: z.coerce.number().int().min(0).default(102_400),
      databaseSpaceMb: z.coerce.number().int().min(0).default(1_024),
      /** The brand's site builder when the brand names none; it checks the token with the key below. */
      siteBuilderUrl: z.string().default('/sitebuilder/'),
      /** Shared with the site builder: the HMAC-SHA256 key of its login tokens. 32+ characters. */
      siteBuilderKey: z.string().min(32).optional(),
    })
    .prefault({}),
  serviceUsers: z
    .object({
      /**
       * `system`: every hosting service gets its own system user and group (useradd), which its
       * PHP pool, FTP logins and files run as; `embedded`: none (PHP as PANEL_WEB_PHP_USER, FTP as
       * uid 33), for trials and development.
       */
      driver: z.enum(['embedded', 'system']).default('embedded'),
      /** The uids (and gids: each group has its user's number) given to service users, both ends included. */
      uidMin: z.coerce.number().int().min(1000).max(2_147_483_646).default(20_000),
      uidMax: z.coerce.number().int().min(1000).max(2_147_483_646).default(29_999),
    })
    .superRefine((users, ctx) => {
      if (users.uidMin > users.uidMax) {
        ctx.addIssue({ code: 'custom', path: ['uidMax'], message: `must not be below uidMin (${users.uidMin})` });
      }
    })
    .prefault({}),
  installer: z
    .object({
      /** The application catalogue: one folder per package; default the repository's deploy/apps. */
      appsDir: z.string().optional(),
      /** The most a package may unpack to, in MiB (a guard against archive bombs). */
      maxSizeMb: z.coerce.number().int().min(1).max(10_240).default(256),
    })
    .prefault({}),
  mailTls: z
    .object({
      /**
       * The folder of the mail daemons' certificates, which the panel orders from the ACME CA and
       * writes (default/, hosts/<name>/, dovecot-sni.conf, postfix-sni; see deploy/dovecot and
       * deploy/postfix-mail); empty: the panel orders no mail certificates.
       */
      dir: z.string().default(''),
      /** Postfix's configuration folder (`postfix -c DIR reload` after a new certificate); Dovecot's is mail.doveadmConfig. */
      postfixConfigDir: z.string().default(''),
    })
    .prefault({}),
  acme: z
    .object({
      /** The ACME CA's directory (Let's Encrypt's production one unless set). */
      directoryUrl: z.string().url().default('https://acme-v02.api.letsencrypt.org/directory'),
      /** A CA certificate (PEM file) to trust for the directory's own HTTPS, besides the public roots (a test CA). */
      directoryCaFile: z.string().optional(),
      /** The contact the CA writes to about expiring certificates (the provider's). */
      email: z.string().optional(),
      /** External Account Binding (ZeroSSL, Google Trust Services): the key id and its base64url HMAC key. */
      eabKid: z.string().optional(),
      eabHmacKey: z.string().optional(),
      /** A certificate is renewed this many days before it expires. */
      renewDays: z.coerce.number().int().min(1).default(30),
      /** A request the CA did not answer (network, 5xx, 429) is tried again this often, waiting this many seconds times the try. */
      retryAttempts: z.coerce.number().int().min(0).default(5),
      retryDelaySeconds: z.coerce.number().min(0).default(5),
      /** How often each instance looks for certificates to renew, in seconds; 0 turns renewal off. */
      renewCheckSeconds: z.coerce.number().int().min(0).default(3600),
      /** The resolvers the checks before an order ask (ip or ip:port); empty: the system's. */
      resolvers: z
        .union([z.array(z.string()), z.string().transform((value) => value.split(',').filter(Boolean))])
        .default([]),
      /** The addresses of the provider's web servers: a name must resolve to one for HTTP-01; empty: not checked. */
      webAddresses: z
        .union([z.array(z.string()), z.string().transform((value) => value.split(',').filter(Boolean))])
        .default([]),
      /** What a CAA `issue` record must name for the CA to be allowed (its CAA identity). */
      caaIdentities: z
        .union([z.array(z.string()), z.string().transform((value) => value.split(',').filter(Boolean))])
        .default(['letsencrypt.org']),
    })
    .prefault({}),
  cron: z
    .object({
      /** PHP's CLI, which runs the tasks' scripts as the service's user on its web server. */
      php: z.string().default('/usr/bin/php'),
      /** A run still going after this long is stopped (its whole process group). */
      timeoutSeconds: z.coerce.number().int().min(10).max(82_800).default(300),
      /** The time zone schedules are read in (an IANA name). */
      timezone: z
        .string()
        .refine((zone) => {
          try {
            new Intl.DateTimeFormat('en', { timeZone: zone });
            return true;
          } catch {
            return false;
          }
        }, 'must be an IANA time zone such as Europe/Madrid')
        .default('UTC'),
    })
    .prefault({}),
  stats: z
    .object({
      /** GoAccess, which reads each site's month of requests on the service's web server. */
      goaccess: z.string().default('/usr/bin/goaccess'),
      /** How often every service's statistics are read again from its access log. */
      refreshSeconds: z.coerce.number().int().min(60).max(86_400).default(3600),
      /** A MaxMind-format country database for GoAccess ('': no countries). */
      geoipDatabase: z.string().default(''),
      /** Where each site's months of requests are kept; default <dataDir>/stats. */
      dir: z.string().optional(),
      /** A service's access log is rotated once read past this size (MiB). */
      rotateMb: z.coerce.number().int().min(1).max(10_240).default(32),
      /** A GoAccess run still going after this long is stopped. */
      timeoutSeconds: z.coerce.number().int().min(10).max(3600).default(300),
    })
    .prefault({}),
  backups: z
    .object({
      /** The restic repository; default <dataDir>/backups/repository. */
      repository: z.string().optional(),
      /** Its password file (made on first use); default <dataDir>/backups/password. */
      passwordFile: z.string().optional(),
      resticBinary: z.string().min(1).default('restic'),
      keepDaily: z.coerce.number().int().min(0).default(7),
      /** Every snapshot of the last hours is kept too (a backup taken on demand survives the day's run). */
      keepWithinHours: z.coerce.number().int().min(0).default(48),
      keepWeekly: z.coerce.number().int().min(0).default(4),
      keepMonthly: z.coerce.number().int().min(0).default(3),
      /** The plan's room for a service's backups, in MiB (the data its snapshots added). */
      quotaMb: z.coerce.number().int().min(0).default(10_240),
      /** How many days a terminated service's last backup is kept; 0: none is made. */
      terminatedKeepDays: z.coerce.number().int().min(0).max(3650).default(30),
      /** When the daily run starts (UTC, HH:MM); '' turns the schedule off. */
      dailyAt: z
        .string()
        .regex(/^(?:|(?:[01]\d|2[0-3]):[0-5]\d)$/, 'HH:MM (UTC), or empty for no schedule')
        .default('03:00'),
    })
    .prefault({}),
  databases: z
    .object({
      /** `embedded`: databases live in the panel only (no MariaDB needed); `mariadb`: real ones. */
      driver: z.enum(['embedded', 'mariadb']).default('embedded'),
      /** The MariaDB admin connection, e.g. mysql://root@127.0.0.1:3306 (required for mariadb). */
      url: z
        .string()
        .regex(/^(mysql|mariadb):\/\//, 'must be a mysql:// URL')
        .optional(),
      /**
       * Put before every generated database and user name; lets several panels (or test runs) share
       * one MariaDB without colliding.
       */
      namePrefix: z
        .string()
        .regex(/^[a-z0-9_]{0,16}$/, 'at most 16 of a-z, 0-9 and _')
        .default(''),
      /** The plan's number of databases per hosting service. */
      maxPerService: z.coerce.number().int().min(0).max(1000).default(5),
      /** Where users, the sites and phpMyAdmin reach MariaDB (given to phpMyAdmin at sign-on). */
      host: z.string().default('127.0.0.1'),
      port: z.coerce.number().int().min(1).max(65535).default(3306),
      /**
       * The hosts a user without external access may connect from. With skip-name-resolve a TCP
       * login from 127.0.0.1 matches neither 'localhost' nor anything but '127.0.0.1' and '%'.
       */
      localHosts: z
        .union([z.array(z.string()), z.string().transform((value) => value.split(',').filter(Boolean))])
        .pipe(z.array(z.string().regex(/^[a-z0-9.:-]{1,60}$/i, 'a host name or address')).min(1))
        .default(['localhost', '127.0.0.1']),
      /** The dump tool, run with an argument array (mariadb-dump or mysqldump). */
      dumpCommand: z.string().min(1).default('mariadb-dump'),
      /** The client a restored dump is fed to, run with an argument array (mariadb or mysql). */
      clientCommand: z.string().min(1).default('mariadb'),
      /** The phpMyAdmin hand-off script the sign-on form posts to, when the brand names no host. */
      phpmyadminUrl: z.string().default('/phpmyadmin/panel247-signon.php'),
      /** Shared with the hand-off script: proves a token redemption comes from it. 32+ characters. */
      phpmyadminKey: z.string().min(32).optional(),
    })
    .superRefine((databases, ctx) => {
      if (databases.driver === 'mariadb' && !databases.url) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'required for the mariadb driver' });
      }
    })
    .prefault({}),
  web: z
    .object({
      /** `embedded`: server blocks and pools are only written (no web server); `nginx`: tested and reloaded. */
      driver: z.enum(['embedded', 'nginx']).default('embedded'),
      /** Where live server blocks and pools go (<configDir>/live/<service>); default <dataDir>/web. */
      configDir: z.string().optional(),
      /** Per-service error logs (<logDir>/<service>/); default <configDir>/logs. */
      logDir: z.string().optional(),
      /** The driver's templates; default the repository's deploy/nginx. */
      templatesDir: z.string().optional(),
      /**
       * How long a web change's call waits for its web server to apply it before it answers that
       * the change is being applied (the work log keeps applying it).
       */
      applyWaitSeconds: z.coerce.number().min(0).max(60).default(10),
      nginxBinary: z.string().min(1).default('/usr/sbin/nginx'),
      /** nginx's -p, -c and -e, used the same way for `nginx -t` and `nginx -s reload`. */
      nginxPrefix: z.string().default('/etc/nginx/'),
      nginxConf: z.string().default('/etc/nginx/nginx.conf'),
      nginxErrorLog: z.string().default('/var/log/nginx/error.log'),
      /** nginx.conf's `pid`: after a reload the driver waits for the master's new workers. */
      nginxPidFile: z.string().default('/run/nginx.pid'),
      /** What the server blocks listen on, e.g. 80 / 443 or 127.0.0.1:8080. */
      httpListen: z.string().default('80'),
      httpsListen: z.string().default('443'),
      /** PHP-FPM per version: pool sockets folder, binary (for -t), main config and master pid. */
      phpSockets: mapOf.default({ '8.2': '/run/php/panel247-8.2' }),
      phpBinaries: mapOf.default({}),
      phpConfigs: mapOf.default({}),
      phpPidFiles: mapOf.default({}),
      /** Instead of USR2 to the pid: a command per version, split on spaces and run without a shell. */
      phpReloadCommands: mapOf.default({}),
      defaultPhpVersion: z
        .string()
        .regex(/^\d+\.\d+$/)
        .default('8.2'),
      /** The pools' user and group, and the web server's (owner of the sockets). */
      phpUser: z.string().default('www-data'),
      phpGroup: z.string().default('www-data'),
      nginxUser: z.string().default('www-data'),
      /**
       * What every HTTP server block serves at /.well-known/acme-challenge/ (the certificate
       * orders' HTTP-01 tokens); default <dataDir>/acme-challenges.
       */
      acmeChallengeDir: z.string().optional(),
    })
    .superRefine((web, ctx) => {
      for (const [version, folder] of Object.entries(web.phpSockets)) {
        if (!/^\d+\.\d+$/.test(version) || !/^(\/[A-Za-z0-9._-]+)+$/.test(folder)) {
          ctx.addIssue({
            code: 'custom',
            path: ['phpSockets'],
            message: 'version=/absolute/folder pairs, e.g. 8.2=/run/php/panel247-8.2',
          });
        }
      }
      if (!web.phpSockets[web.defaultPhpVersion]) {
        ctx.addIssue({
          code: 'custom',
          path: ['defaultPhpVersion'],
          message: 'must be one of the versions in phpSockets',
        });
      }
    })
    .prefault({}),
  dnssec: z
    .object({
      /** The TTL the registry's zone gives DS records (how long resolvers may keep a removed DS). */
      dsTtlSeconds: z.coerce.number().int().min(0).max(604_800).default(86_400),
      /** How long the parent takes to publish a change made at the registry. */
      parentDelaySeconds: z.coerce.number().int().min(0).max(604_800).default(3600),
      /**
       * Unsigning waits this long between the DS removal and the keys' removal; unset: the DS TTL
       * plus the parent's delay.
       */
      unsignWaitSeconds: z.coerce.number().int().min(0).max(2_592_000).optional(),
      /** How often the CDS/CDNSKEY scan runs (once across instances); 0 turns it off. */
      scanSeconds: z.coerce.number().int().min(0).default(21_600),
      /** A `trust-anchors { … };` file for the scan's validation; unset: delv's built-in root key. */
      trustAnchors: z.string().optional(),
      /** The name those anchors are for (delv's +root); the DNS root by default. */
      trustRoot: z
        .string()
        .regex(/^(\.|([a-z0-9-]+\.)*[a-z0-9-]+\.?)$/i, 'must be a domain name or .')
        .default('.'),
    })
    .prefault({}),
  registry: z
    .object({
      /**
       * The registry of record: `embedded` (the provider is the registry; its state is the panel
       * database) or `epp` (the registries `panel registry add` configured, by TLD, over EPP).
       */
      driver: z.enum(['embedded', 'epp']).default('embedded'),
      /** How long a domain read from an EPP registry is reused (seconds). */
      cacheSeconds: z.coerce.number().int().min(0).max(3600).default(30),
      /** An idle EPP session says `hello` this often (seconds), so the registry keeps it. */
      keepAliveSeconds: z.coerce.number().int().min(10).max(3600).default(300),
      /** How often the registries' poll queues are read (seconds; 0: never, e.g. another system reads them). */
      pollSeconds: z.coerce.number().int().min(0).max(86400).default(300),
      /** DNS servers (host:port) that name servers must resolve through; the system's when empty. */
      resolvers: z
        .union([z.array(z.string()), z.string().transform((value) => value.split(',').filter(Boolean))])
        .default([]),
    })
    .prefault({}),
  mailSending: z
    .object({
      /**
       * Where the panel answers Postfix's policy requests, which submission's check_policy_service
       * names: a Unix socket's absolute path (best in Postfix's private/ folder, which only root
       * and Postfix reach) or host:port (an IPv4 address, [IPv6] or localhost: any local process
       * can connect there); empty: the sending limit is off. The protocol has no login.
       */
      policyListen: z
        .string()
        .regex(
          /^(?:|\/(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+|(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|localhost):\d{1,5})$/,
          'a socket path, host:port (an IPv4 address, [IPv6] or localhost), or empty for off',
        )
        .default(''),
      /**
       * The plan's sending limit (until plans are data): recipients one mailbox may send to per
       * hour through submission; a message to three people counts three.
       */
      limitPerHour: z.coerce.number().int().min(1).max(1_000_000).default(200),
    })
    .prefault({}),
  smtp: z
    .object({
      /** smtp://user:pass@host:port or smtps://…; empty keeps messages in the outbox table. */
      url: z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
        .optional(),
      from: z.string().default('Panel247 <no-reply@localhost>'),
    })
    .prefault({}),
  /**
   * `panel doctor`'s customer-level probes. A probe whose login is not set is reported as skipped,
   * never as passed. The passwords are only sent to the daemon they are for, never printed.
   */
  doctor: z
    .object({
      /**
       * A login Dovecot takes for the IMAP and submission probes: a mailbox kept for probing, or
       * "<mailbox>*doctor" with a master user of Dovecot's master-users file (see docs/OPERATIONS.md).
       */
      mailLogin: z.string().optional(),
      mailPassword: z.string().optional(),
      /** Where IMAP (STARTTLS) and submission (STARTTLS + AUTH) answer; default 127.0.0.1 and mail.imapPort / mail.smtpPort. */
      imapAddress: hostPortSchema.optional(),
      submissionAddress: hostPortSchema.optional(),
      /** An FTP account kept for probing (its home may stay empty: the probe only logs in). */
      ftpLogin: z.string().optional(),
      ftpPassword: z.string().optional(),
      /** Where nginx answers plain HTTP for the PHP probe; default 127.0.0.1 and the port of web.httpListen. */
      webAddress: hostPortSchema.optional(),
      /** Where PowerDNS answers DNS; default its API's local-address and local-port settings. */
      dnsAddress: hostPortSchema.optional(),
      /**
       * The secondary name servers (host:port where each answers DNS), compared with the primary
       * zone by zone ("name servers in step"); none: the check is skipped.
       */
      secondaries: z
        .union([z.array(hostPortSchema), z.string().transform((value) => value.split(',').filter(Boolean))])
        .pipe(z.array(hostPortSchema))
        .default([]),
    })
    .prefault({}),
});

export type AppConfig = z.output<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Environment variable → config path. Kept as a table so the README can list it. */
export const ENV_MAP: Record<string, string> = {
  HOST: 'host',
  PORT: 'port',
  PANEL_BASE_PATH: 'basePath',
  PANEL_DATA_DIR: 'dataDir',
  PANEL_DATABASE_URL: 'databaseUrl',
  PANEL_DATABASE_POOL_SIZE: 'databasePoolSize',
  PANEL_DATABASE_PREPARED_STATEMENTS: 'databasePreparedStatements',
  PANEL_SECRET_KEY: 'secretKey',
  PANEL_SEED_DEMO: 'seedDemo',
  PANEL_WEB_DIST: 'webDist',
  PANEL_SERVER_RENDER: 'serverRender',
  PANEL_LOG_LEVEL: 'logLevel',
  PANEL_TRUST_PROXY: 'trustProxy',
  PANEL_DEFAULT_LANGUAGE: 'defaultLanguage',
  PANEL_SESSION_IDLE_MINUTES: 'session.idleMinutes',
  PANEL_ACTIVITY_RETENTION_DAYS: 'activity.retentionDays',
  PANEL_ACTIVITY_PURGE_SECONDS: 'activity.purgeSeconds',
  PANEL_USER_INVITATION_HOURS: 'users.invitationHours',
  PANEL_SESSION_ABSOLUTE_HOURS: 'session.absoluteHours',
  PANEL_SESSION_CACHE_SECONDS: 'session.cacheSeconds',
  PANEL_API_TOKEN_PURGE_DAYS: 'apiTokens.purgeDays',
  PANEL_CAPTCHA: 'captcha.provider',
  PANEL_CAPTCHA_SITE_KEY: 'captcha.siteKey',
  PANEL_CAPTCHA_SECRET: 'captcha.secret',
  PANEL_CAPTCHA_VERIFY_URL: 'captcha.verifyUrl',
  PANEL_CAPTCHA_ALTCHA_MAX_NUMBER: 'captcha.altchaMaxNumber',
  PANEL_LOGIN_LIMIT_PER_ACCOUNT: 'limits.loginPerAccount',
  PANEL_LOGIN_LIMIT_PER_IP: 'limits.loginPerIp',
  PANEL_LOGIN_LIMIT_WINDOW_MINUTES: 'limits.loginWindowMinutes',
  PANEL_FORMS_LIMIT_PER_IP: 'limits.formsPerIp',
  PANEL_FORMS_LIMIT_WINDOW_MINUTES: 'limits.formsWindowMinutes',
  PANEL_IDLE_SOCKET_SECONDS: 'limits.idleSocketSeconds',
  PANEL_HEADERS_TIMEOUT_SECONDS: 'limits.headersSeconds',
  PANEL_REQUEST_TIMEOUT_SECONDS: 'limits.requestSeconds',
  PANEL_KEEP_ALIVE_SECONDS: 'limits.keepAliveSeconds',
  PANEL_CONNECTIONS_PER_ADDRESS: 'limits.connectionsPerAddress',
  PANEL_DNS_DRIVER: 'dns.driver',
  PANEL_POWERDNS_API_URL: 'dns.powerdnsApiUrl',
  PANEL_POWERDNS_API_KEY: 'dns.powerdnsApiKey',
  PANEL_POWERDNS_ZONE_KIND: 'dns.powerdnsZoneKind',
  PANEL_POWERDNS_SERVER_ID: 'dns.powerdnsServerId',
  PANEL_POWERDNS_TIMEOUT_SECONDS: 'dns.powerdnsTimeoutSeconds',
  PANEL_DNS_NAMESERVERS: 'dns.nameservers',
  PANEL_DNS_DEFAULT_TTL: 'dns.defaultTtl',
  PANEL_DNS_IMPORT_AXFR: 'dns.importAxfr',
  PANEL_DNS_HISTORY_KEEP: 'dns.historyKeep',
  PANEL_DNS_HISTORY_DAYS: 'dns.historyDays',
  PANEL_DNS_REPUBLISH_SECONDS: 'dns.republishSeconds',
  PANEL_DNS_PUBLISH_WAIT_SECONDS: 'dns.publishWaitSeconds',
  PANEL_DNS_WEB_IPV4: 'dns.webIpv4',
  PANEL_DNS_WEB_IPV6: 'dns.webIpv6',
  PANEL_DNS_MAIL_IPV4: 'dns.mailIpv4',
  PANEL_DNS_WEB_HOST: 'dns.webHost',
  PANEL_DNS_MAIL_HOST: 'dns.mailHost',
  PANEL_DNS_DATABASES_IPV4: 'dns.databasesIpv4',
  PANEL_DNS_DATABASES_HOST: 'dns.databasesHost',
  PANEL_DNS_SPF_INCLUDE: 'dns.spfInclude',
  PANEL_DNS_DMARC_REPORT: 'dns.dmarcReport',
  PANEL_DNS_DEFAULT_RECORDS: 'dns.defaultRecords',
  PANEL_DNS_ALLOW_PLACEHOLDERS: 'dns.allowPlaceholders',
  PANEL_REGISTRY_DRIVER: 'registry.driver',
  PANEL_REGISTRY_RESOLVERS: 'registry.resolvers',
  PANEL_REGISTRY_CACHE_SECONDS: 'registry.cacheSeconds',
  PANEL_REGISTRY_KEEPALIVE_SECONDS: 'registry.keepAliveSeconds',
  PANEL_REGISTRY_POLL_SECONDS: 'registry.pollSeconds',
  PANEL_CRON_PHP: 'cron.php',
  PANEL_CRON_TIMEOUT_SECONDS: 'cron.timeoutSeconds',
  PANEL_CRON_TIMEZONE: 'cron.timezone',
  PANEL_STATS_GOACCESS: 'stats.goaccess',
  PANEL_STATS_REFRESH_SECONDS: 'stats.refreshSeconds',
  PANEL_STATS_GEOIP_DATABASE: 'stats.geoipDatabase',
  PANEL_STATS_DIR: 'stats.dir',
  PANEL_STATS_ROTATE_MB: 'stats.rotateMb',
  PANEL_STATS_TIMEOUT_SECONDS: 'stats.timeoutSeconds',
  PANEL_DNSSEC_DS_TTL_SECONDS: 'dnssec.dsTtlSeconds',
  PANEL_DNSSEC_PARENT_DELAY_SECONDS: 'dnssec.parentDelaySeconds',
  PANEL_DNSSEC_UNSIGN_WAIT_SECONDS: 'dnssec.unsignWaitSeconds',
  PANEL_DNSSEC_SCAN_SECONDS: 'dnssec.scanSeconds',
  PANEL_DNSSEC_TRUST_ANCHORS: 'dnssec.trustAnchors',
  PANEL_DNSSEC_TRUST_ROOT: 'dnssec.trustRoot',
  PANEL_HOSTING_ROOT: 'hosting.root',
  PANEL_FTP_PORT: 'hosting.ftpPort',
  PANEL_SFTP_PORT: 'hosting.sftpPort',
  PANEL_FTP_HOST: 'hosting.ftpHost',
  PANEL_FTP_USERS_FILE: 'hosting.ftpUsersFile',
  PANEL_FTP_DRIVER: 'hosting.ftpDriver',
  PANEL_WEBFTP_URL: 'hosting.webftpUrl',
  PANEL_WEBFTP_KEY: 'hosting.webftpKey',
  PANEL_HOSTING_WEB_SPACE_MB: 'hosting.webSpaceMb',
  PANEL_HOSTING_TRAFFIC_MB: 'hosting.trafficMb',
  PANEL_HOSTING_DATABASE_SPACE_MB: 'hosting.databaseSpaceMb',
  PANEL_SITEBUILDER_URL: 'hosting.siteBuilderUrl',
  PANEL_SITEBUILDER_KEY: 'hosting.siteBuilderKey',
  PANEL_BACKUP_REPOSITORY: 'backups.repository',
  PANEL_BACKUP_PASSWORD_FILE: 'backups.passwordFile',
  PANEL_BACKUP_RESTIC_BINARY: 'backups.resticBinary',
  PANEL_BACKUP_KEEP_DAILY: 'backups.keepDaily',
  PANEL_BACKUP_KEEP_WITHIN_HOURS: 'backups.keepWithinHours',
  PANEL_BACKUP_KEEP_WEEKLY: 'backups.keepWeekly',
  PANEL_BACKUP_KEEP_MONTHLY: 'backups.keepMonthly',
  PANEL_BACKUP_QUOTA_MB: 'backups.quotaMb',
  PANEL_BACKUP_TERMINATED_KEEP_DAYS: 'backups.terminatedKeepDays',
  PANEL_BACKUP_DAILY_AT: 'backups.dailyAt',
  PANEL_APPS_DIR: 'installer.appsDir',
  PANEL_APPS_MAX_SIZE_MB: 'installer.maxSizeMb',
  PANEL_DATABASES_DRIVER: 'databases.driver',
  PANEL_DATABASES_URL: 'databases.url',
  PANEL_DATABASES_NAME_PREFIX: 'databases.namePrefix',
  PANEL_DATABASES_MAX_PER_SERVICE: 'databases.maxPerService',
  PANEL_DATABASES_HOST: 'databases.host',
  PANEL_DATABASES_PORT: 'databases.port',
  PANEL_DATABASES_LOCAL_HOSTS: 'databases.localHosts',
  PANEL_DATABASES_DUMP_COMMAND: 'databases.dumpCommand',
  PANEL_DATABASES_CLIENT_COMMAND: 'databases.clientCommand',
  PANEL_PHPMYADMIN_URL: 'databases.phpmyadminUrl',
  PANEL_PHPMYADMIN_KEY: 'databases.phpmyadminKey',
  PANEL_MAIL_DRIVER: 'mail.driver',
  PANEL_MAIL_ROOT: 'mail.root',
  PANEL_MAIL_DEFAULT_QUOTA_MB: 'mail.defaultQuotaMb',
  PANEL_MAIL_MAX_QUOTA_MB: 'mail.maxQuotaMb',
  PANEL_MAIL_DELETE_MODE: 'mail.deleteMode',
  PANEL_MAIL_KEEP_DAYS: 'mail.keepDays',
  PANEL_MAIL_DOVEADM_CONFIG: 'mail.doveadmConfig',
  PANEL_WEBMAIL_URL: 'mail.webmailUrl',
  PANEL_WEBMAIL_KEY: 'mail.webmailKey',
  PANEL_MAIL_IMAP_PORT: 'mail.imapPort',
  PANEL_MAIL_IMAP_SSL_PORT: 'mail.imapSslPort',
  PANEL_MAIL_SMTP_PORT: 'mail.smtpPort',
  PANEL_MAIL_SMTP_SSL_PORT: 'mail.smtpSslPort',
  PANEL_MAIL_SMTP_ADDRESS: 'mail.smtpAddress',
  PANEL_MAIL_RSPAMD_ADDRESS: 'mail.rspamdAddress',
  PANEL_MAIL_DKIM_DRIVER: 'mail.dkimDriver',
  PANEL_MAIL_OPENDKIM_DIR: 'mail.opendkimDir',
  PANEL_MAIL_OPENDKIM_PID_FILE: 'mail.opendkimPidFile',
  PANEL_MAIL_OPENDKIM_UID: 'mail.opendkimUid',
  PANEL_MAIL_OPENDKIM_GID: 'mail.opendkimGid',
  PANEL_MAIL_DKIM_RETIRE_SECONDS: 'mail.dkimRetireSeconds',
  PANEL_WEB_DRIVER: 'web.driver',
  PANEL_WEB_CONFIG_DIR: 'web.configDir',
  PANEL_WEB_LOG_DIR: 'web.logDir',
  PANEL_WEB_TEMPLATES_DIR: 'web.templatesDir',
  PANEL_WEB_APPLY_WAIT_SECONDS: 'web.applyWaitSeconds',
  PANEL_AGENT: 'agent.mode',
  PANEL_AGENT_URL: 'agent.url',
  PANEL_NODE: 'agent.node',
  PANEL_NODE_KEY: 'agent.nodeKey',
  PANEL_AGENT_SYNC_SECONDS: 'agent.syncSeconds',
  PANEL_WEB_NGINX_BINARY: 'web.nginxBinary',
  PANEL_WEB_NGINX_PREFIX: 'web.nginxPrefix',
  PANEL_WEB_NGINX_CONF: 'web.nginxConf',
  PANEL_WEB_NGINX_ERROR_LOG: 'web.nginxErrorLog',
  PANEL_WEB_NGINX_PID_FILE: 'web.nginxPidFile',
  PANEL_WEB_HTTP_LISTEN: 'web.httpListen',
  PANEL_WEB_HTTPS_LISTEN: 'web.httpsListen',
  PANEL_WEB_PHP_SOCKETS: 'web.phpSockets',
  PANEL_WEB_PHP_BINARIES: 'web.phpBinaries',
  PANEL_WEB_PHP_CONFIGS: 'web.phpConfigs',
  PANEL_WEB_PHP_PID_FILES: 'web.phpPidFiles',
  PANEL_WEB_PHP_RELOAD_COMMANDS: 'web.phpReloadCommands',
  PANEL_WEB_DEFAULT_PHP_VERSION: 'web.defaultPhpVersion',
  PANEL_WEB_PHP_USER: 'web.phpUser',
  PANEL_WEB_PHP_GROUP: 'web.phpGroup',
  PANEL_WEB_NGINX_USER: 'web.nginxUser',
  PANEL_WEB_ACME_CHALLENGE_DIR: 'web.acmeChallengeDir',
  PANEL_MAIL_TLS_DIR: 'mailTls.dir',
  PANEL_MAIL_POSTFIX_CONFIG_DIR: 'mailTls.postfixConfigDir',
  PANEL_ACME_DIRECTORY_URL: 'acme.directoryUrl',
  PANEL_ACME_DIRECTORY_CA_FILE: 'acme.directoryCaFile',
  PANEL_ACME_EMAIL: 'acme.email',
  PANEL_ACME_EAB_KID: 'acme.eabKid',
  PANEL_ACME_EAB_HMAC_KEY: 'acme.eabHmacKey',
  PANEL_ACME_RENEW_DAYS: 'acme.renewDays',
  PANEL_ACME_RETRY_ATTEMPTS: 'acme.retryAttempts',
  PANEL_ACME_RETRY_DELAY_SECONDS: 'acme.retryDelaySeconds',
  PANEL_ACME_RENEW_CHECK_SECONDS: 'acme.renewCheckSeconds',
  PANEL_ACME_RESOLVERS: 'acme.resolvers',
  PANEL_ACME_WEB_ADDRESSES: 'acme.webAddresses',
  PANEL_ACME_CAA_IDENTITIES: 'acme.caaIdentities',
  PANEL_SMTP_URL: 'smtp.url',
  PANEL_SMTP_FROM: 'smtp.from',
  PANEL_HOSTING_UID: 'hosting.uid',
  PANEL_HOSTING_GID: 'hosting.gid',
  PANEL_SERVICE_USERS_DRIVER: 'serviceUsers.driver',
  PANEL_SERVICE_UID_MIN: 'serviceUsers.uidMin',
  PANEL_SERVICE_UID_MAX: 'serviceUsers.uidMax',
  PANEL_MAIL_POLICY_LISTEN: 'mailSending.policyListen',
  PANEL_MAIL_SEND_LIMIT_PER_HOUR: 'mailSending.limitPerHour',
  PANEL_DOCTOR_MAIL_LOGIN: 'doctor.mailLogin',
  PANEL_DOCTOR_MAIL_PASSWORD: 'doctor.mailPassword',
  PANEL_DOCTOR_IMAP_ADDRESS: 'doctor.imapAddress',
  PANEL_DOCTOR_SUBMISSION_ADDRESS: 'doctor.submissionAddress',
  PANEL_DOCTOR_FTP_LOGIN: 'doctor.ftpLogin',
  PANEL_DOCTOR_FTP_PASSWORD: 'doctor.ftpPassword',
  PANEL_DOCTOR_SECONDARIES: 'doctor.secondaries',
  PANEL_DOCTOR_WEB_ADDRESS: 'doctor.webAddress',
  PANEL_DOCTOR_DNS_ADDRESS: 'doctor.dnsAddress',
};

/**
 * `PANEL_*` names that are read, but not through {@link ENV_MAP}: the config file, the environment
 * file (config-source.ts) and the origin
 * lists (here), the CLI's stack traces, the version the envelope reports, the security headers'
 * override, the web dev server's API target and the benchmarks' PostgreSQL.
 */
const OTHER_PANEL_VARIABLES = new Set([
  'PANEL_CONFIG_FILE',
  'PANEL_ENV_FILE',
  'PANEL_ALLOWED_ORIGINS',
  'PANEL_PASSKEY_ORIGINS',
  'PANEL_CLI_DEBUG',
  'PANEL_VERSION',
  'PANEL_HELMET_OPTIONS',
  'PANEL_API_URL',
  'PANEL_BENCH_PG_URL',
]);

/** The test harness's own settings (`PANEL_TEST_PG_URL`…), which it passes down to the servers it starts. */
const TEST_PREFIX = 'PANEL_TEST_';

/** The number of single-character edits between two names (for "did you mean"). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * `PANEL_*` variables of the environment that the panel does not read, each with the closest name
 * it knows when one is near (a typo): a setting that is silently ignored is worse than an error,
 * but an unknown name must not stop a server that is otherwise sound, so the caller warns.
 */
export function unknownPanelVariables(env: NodeJS.ProcessEnv = process.env): string[] {
  const known = [...Object.keys(ENV_MAP), ...OTHER_PANEL_VARIABLES];
  return Object.keys(env)
    .filter((name) => name.startsWith('PANEL_') && !name.startsWith(TEST_PREFIX) && !known.includes(name))
    .sort()
    .map((name) => {
      const [closest] = known
        .map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
        .sort((x, y) => x.distance - y.distance);
      return closest && closest.distance <= 3 ? `${name} (did you mean ${closest.candidate}?)` : name;
    });
}

/**
 * Variables whose empty value means "none" rather than "not set": the provider has no IPv6 web
 * server, no SPF record of its own, no DMARC report address (the default records using them are
 * left out). Any other empty variable keeps its default, as an empty line of an env file should.
 */
const CLEARABLE_VARIABLES = new Set([
  'PANEL_DNS_WEB_IPV6',
  'PANEL_DNS_WEB_IPV4',
  'PANEL_DNS_MAIL_IPV4',
  'PANEL_DNS_SPF_INCLUDE',
  'PANEL_DNS_DMARC_REPORT',
]);

function setPath(target: Record<string, unknown>, dotted: string, value: unknown) {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
}

/** Reads the file (if any) and the environment, validates, and resolves paths. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Record<string, unknown> = {}): AppConfig {
  const problems: string[] = [];
  let raw: Record<string, unknown> = {};
  if (env.PANEL_CONFIG_FILE) {
    try {
      raw = JSON.parse(readFileSync(env.PANEL_CONFIG_FILE, 'utf8'));
    } catch (error) {
      problems.push(`PANEL_CONFIG_FILE (${env.PANEL_CONFIG_FILE}): ${(error as Error).message}`);
    }
  }
  for (const [name, dotted] of Object.entries(ENV_MAP)) {
    const value = env[name];
    if (value !== undefined && (value !== '' || CLEARABLE_VARIABLES.has(name))) setPath(raw, dotted, value);
  }
  if (env.PANEL_ALLOWED_ORIGINS) setPath(raw, 'allowedOrigins', env.PANEL_ALLOWED_ORIGINS.split(',').filter(Boolean));
  if (env.PANEL_PASSKEY_ORIGINS) setPath(raw, 'passkeyOrigins', env.PANEL_PASSKEY_ORIGINS.split(',').filter(Boolean));
  for (const [dotted, value] of Object.entries(overrides)) setPath(raw, dotted, value);

  const parsed = configSchema.safeParse(raw);
  // The embedded work log serves one process on its SQLite file (it takes a job that was running
  // at its start as dead): an agent of its own needs the shared engine of PostgreSQL.
  if (parsed.success && parsed.data.agent.mode === 'separate' && !parsed.data.databaseUrl)
    problems.push('agent.mode (PANEL_AGENT): separate needs PostgreSQL (PANEL_DATABASE_URL)');
  if (parsed.success && parsed.data.agent.node !== '' && parsed.data.agent.nodeKey === '')
    problems.push('agent.nodeKey (PANEL_NODE_KEY): a server (PANEL_NODE) needs the key `panel node add` printed');
  if (parsed.success && parsed.data.agent.mode === 'separate' && parsed.data.agent.url === '')
    problems.push("agent.url (PANEL_AGENT_URL): separate needs the agent's address (http://host:port)");
  if (!parsed.success) {
    const byPath = Object.fromEntries(Object.entries(ENV_MAP).map(([name, dotted]) => [dotted, name]));
    for (const issue of parsed.error.issues) {
      const dotted = issue.path.join('.');
      const source = byPath[dotted] ? ` (${byPath[dotted]})` : '';
      problems.push(`${dotted || '(root)'}${source}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const config = parsed.data;
  config.dataDir = path.resolve(config.dataDir);
  config.hosting.root = path.resolve(config.hosting.root ?? path.join(config.dataDir, 'www'));
  config.mail.root = path.resolve(config.mail.root ?? path.join(config.dataDir, 'mail'));
  config.mail.driver ??= config.mail.doveadmConfig ? 'dovecot' : 'embedded';
  config.mail.dkimDriver ??= config.mail.opendkimDir ? 'opendkim' : 'embedded';
  config.hosting.ftpDriver ??= config.hosting.ftpUsersFile ? 'proftpd' : 'embedded';
  config.web.configDir = path.resolve(config.web.configDir ?? path.join(config.dataDir, 'web'));
  config.web.acmeChallengeDir = path.resolve(
    config.web.acmeChallengeDir ?? path.join(config.dataDir, 'acme-challenges'),
  );
  // A folder repository is made absolute; a remote one (sftp:, s3:, rest:…) is kept as written.
  const repository = config.backups.repository ?? path.join(config.dataDir, 'backups', 'repository');
  config.backups.repository = /^[a-z0-9]+:/.test(repository) ? repository : path.resolve(repository);
  config.backups.passwordFile = path.resolve(
    config.backups.passwordFile ?? path.join(config.dataDir, 'backups', 'password'),
  );
  config.web.logDir = path.resolve(config.web.logDir ?? path.join(config.web.configDir, 'logs'));
  config.installer.appsDir = path.resolve(config.installer.appsDir ?? repoPath('deploy/apps'));
  config.webDist = path.resolve(config.webDist ?? repoPath('apps/web/dist'));
  return config;
}
