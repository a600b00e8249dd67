import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';

interface Report {
  ok: boolean;
  checks: { name: string; ok: boolean; skipped?: true; detail: string; fix?: string }[];
}

/** `panel doctor --json` in-process with this environment: its exit code and report. */
async function doctor(env: Record<string, string>): Promise<{ code: number; report: Report }> {
  let out = '';
  const code = await runCli(['doctor', '--json'], {
    stdout: (text) => {
      out += text;
    },
    stderr: () => {},
    readStdin: async () => '',
    env,
  });
  return { code, report: JSON.parse(out) as Report };
}

describe('panel doctor', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-doctor-'));
  let refusing: Server;
  let refusingUrl = '';

  beforeAll(async () => {
    // an HTTP server that answers every PowerDNS API call with 401, as a wrong key gets
    refusing = createServer((_request, response) => response.writeHead(401).end());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const address = refusing.address();
    refusingUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => refusing.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('with the embedded drivers checks the database and the disk, and passes; the customer probes are skipped, not passed (`doctor` is `doctor check`)', async () => {
    const { code, report } = await doctor({ PANEL_DATA_DIR: dir });
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => [check.name, check.skipped ? 'skipped' : check.ok])).toEqual([
      ['panel database', true],
      ['work log', true],
      ['changes on their servers', true],
      ['servers', true],
      ['restic', true],
      ['disk', true],
      ['php sockets 8.2', 'skipped'],
      ['dns settings', 'skipped'],
      ['php page 8.2', 'skipped'],
      ['imap login', 'skipped'],
      ['submission login', 'skipped'],
      ['dns answer', 'skipped'],
      ['ftp login', 'skipped'],
    ]);
  });

  it('says the skipped checks apart from the passed ones', async () => {
    let out = '';
    await runCli(['doctor'], {
      stdout: (text) => {
        out += text;
      },
      stderr: () => {},
      readStdin: async () => '',
      env: { PANEL_DATA_DIR: dir },
    });
    expect(out).toMatch(/imap login\s+skipped\s+skipped: the embedded mail driver/);
    expect(out).toContain('All 6 checks that ran passed. 7 skipped (nothing to ask: see their detail).');
  });

  it('fails, exit 1, naming what failed and how to fix it; a daemon that does not listen is a failure too', async () => {
    const { code, report } = await doctor({
      PANEL_DATA_DIR: dir,
      PANEL_DNS_DRIVER: 'powerdns',
      PANEL_POWERDNS_API_URL: refusingUrl,
      PANEL_POWERDNS_API_KEY: 'wrong',
      PANEL_FTP_DRIVER: 'proftpd',
      PANEL_FTP_HOST: '127.0.0.1',
      PANEL_FTP_PORT: '1',
    });
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    const byName = Object.fromEntries(report.checks.map((check) => [check.name, check]));
    expect(byName.powerdns).toMatchObject({ ok: false, detail: 'the API answers HTTP 401' });
    expect(byName.powerdns?.fix).toContain('PANEL_POWERDNS_API_KEY');
    expect(byName.proftpd).toMatchObject({ ok: false });
    expect(byName.proftpd?.detail).toContain('ECONNREFUSED');
    // the key never appears in what doctor says
    expect(JSON.stringify(report)).not.toContain('wrong');
  });
});
