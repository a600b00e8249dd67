import { execFileAsync, requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';

/** What a client printed (its stdout and stderr together) and its exit code (0 = all went well). */
export interface ClientRun {
  code: number;
  output: string;
}

async function run(binary: string, args: string[], input?: string): Promise<ClientRun> {
  try {
    const started = execFileAsync(binary, args, { maxBuffer: 4 * 1024 * 1024 });
    started.child.stdin?.end(input ?? '');
    const { stdout, stderr } = await started;
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failure.code === 'number' ? failure.code : -1,
      output: `${failure.stdout ?? ''}${failure.stderr ?? ''}`,
    };
  }
}

/** swaks, the SMTP test client, with its arguments (`--server`, `--tls`, `--auth` …). */
export function swaks(args: string[]): Promise<ClientRun> {
  return run(requireBinary('swaks', 'swaks'), ['--timeout', '30', ...args]);
}

/** curl (IMAP, IMAPS). */
export function curl(args: string[]): Promise<ClientRun> {
  return run(requireBinary('curl', 'curl'), ['-s', '-S', '--max-time', '30', ...args]);
}

/** `openssl s_client` with its arguments, `input` written once the connection is up. */
export function opensslClient(args: string[], input: string): Promise<ClientRun> {
  return run(requireBinary('openssl', 'openssl'), ['s_client', ...args], input);
}

/** A message sent as a mail client sends it: submission with STARTTLS and a PLAIN login (swaks). */
export function submit(message: {
  server: string;
  login: string;
  password: string;
  /** The envelope sender; the login by default. */
  from?: string;
  to: string;
  subject: string;
  body?: string;
  /** More swaks arguments (certificate checks, SNI). */
  extra?: string[];
}): Promise<ClientRun> {
  return swaks([
    '--server',
    message.server,
    '--tls',
    ...(message.extra ?? []),
    '--auth',
    'PLAIN',
    '--auth-user',
    message.login,
    '--auth-password',
    message.password,
    '--from',
    message.from ?? message.login,
    '--to',
    message.to,
    '--header',
    `Subject: ${message.subject}`,
    ...(message.body === undefined ? [] : ['--body', message.body]),
  ]);
}
