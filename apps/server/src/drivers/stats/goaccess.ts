import { spawn } from 'node:child_process';
import { constants, open } from 'node:fs/promises';

/** The nginx log format `panel247_vhost` (deploy/nginx/nginx.conf.template) in GoAccess's words. */
export const GOACCESS_LOG_FORMAT = '%v %h %^[%d:%t %^] "%r" %s %b "%R" "%u"';

/**
 * The panels read: the others (addresses, browsers, systems, hours, keyphrases, virtual hosts)
 * are not parsed at all, so no visitor's address reaches the report.
 */
const IGNORED_PANELS = [
  'HOSTS',
  'OS',
  'BROWSERS',
  'VISIT_TIMES',
  'VIRTUAL_HOSTS',
  'REFERRERS',
  'KEYPHRASES',
  'REMOTE_USER',
  'CACHE_STATUS',
  'MIME_TYPE',
  'TLS_TYPE',
];

/** What GoAccess's JSON report holds, as far as the panel reads it. */
export type GoaccessReport = Record<string, unknown>;

export interface GoaccessOptions {
  binary: string;
  /** Who it runs as: it parses what any visitor wrote into the log. */
  owner: { uid: number; gid: number } | undefined;
  /** A MaxMind-format country database (countries shown only with one). */
  geoipDatabase: string;
  timeoutMs: number;
  /** The report's largest size read, in bytes. */
  maxBytes: number;
}

/**
 * GoAccess over one log file (one site's month, in the panel's own folder): the file is opened
 * here, without following a link, and handed to GoAccess as its standard input; GoAccess runs
 * with the given user's rights, a bare environment and no configuration file, and prints its JSON
 * report. A failure (exit status, timeout, a report too big or not JSON) is an Error.
 */
export async function goaccessReport(file: string, options: GoaccessOptions): Promise<GoaccessReport> {
  const input = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const args = [
      '-',
      '--no-global-config',
      `--log-format=${GOACCESS_LOG_FORMAT}`,
      '--date-format=%d/%b/%Y',
      '--time-format=%T',
      '-o',
      'json',
      '--max-items=50',
      '--anonymize-ip',
      ...IGNORED_PANELS.map((panel) => `--ignore-panel=${panel}`),
      ...(options.geoipDatabase ? [`--geoip-database=${options.geoipDatabase}`] : ['--ignore-panel=GEO_LOCATION']),
    ];
    const text = await new Promise<string>((resolve, reject) => {
      const child = spawn(options.binary, args, {
        cwd: '/',
        env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
        stdio: [input.fd, 'pipe', 'pipe'],
        ...(options.owner ? { uid: options.owner.uid, gid: options.owner.gid } : {}),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let errors = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
      child.stdout?.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) child.kill('SIGKILL');
        else chunks.push(chunk);
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        if (errors.length < 2000) errors += chunk.toString('utf8');
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
        else if (size > options.maxBytes) reject(new Error(`goaccess: report over ${options.maxBytes} bytes`));
        else reject(new Error(`goaccess: ${signal ?? `exit ${code}`}: ${errors.trim().slice(0, 500)}`));
      });
    });
    const report: unknown = JSON.parse(text);
    if (!report || typeof report !== 'object') throw new Error('goaccess: the report is not an object');
    return report as GoaccessReport;
  } finally {
    await input.close();
  }
}
