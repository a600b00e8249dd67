import { spawn } from 'node:child_process';
import path from 'node:path';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';

const HARNESS = path.resolve(import.meta.dirname, '../../../../integrations/whmcs/test/run-module.php');

/** What one module function answered (its return value) and what it wrote to the module log. */
export interface ModuleRun {
  answer: unknown;
  log: string;
}

/**
 * The WHMCS module's functions run by Debian's php-cli (integrations/whmcs/test/run-module.php)
 * with the parameter arrays WHMCS passes: the server's (its host, port and token) and the call's.
 * Run apart (not spawnSync): a panel answering it may live in this process's event loop.
 */
export function whmcsModule(server: Record<string, unknown>) {
  const php = requireBinary('php', 'php-cli');
  return (command: string, params: Record<string, unknown> = {}): Promise<ModuleRun> =>
    new Promise((resolve, reject) => {
      const child = spawn(php, [HARNESS, command], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) reject(new Error(`php ${command} exited ${code}: ${stderr}`));
        else resolve({ answer: JSON.parse(stdout), log: stderr });
      });
      child.stdin.end(JSON.stringify({ ...server, ...params }));
    });
}

/** WHMCS's server parameters for a panel at `host:port` over http, with a provider token. */
export function whmcsServer(host: string, port: number, token: string): Record<string, unknown> {
  return {
    serverid: 1,
    serverhostname: host,
    serverip: host,
    serverport: String(port),
    serversecure: false,
    serveraccesshash: token,
    serverusername: '',
    serverpassword: '',
  };
}
