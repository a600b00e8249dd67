import { execFile } from 'node:child_process';

/** An RRset as a validating resolver answered it. */
export interface ValidatedAnswer {
  /**
   * `validated`: the chain of trust from the anchor reached it (records may be empty: a validated
   * "no such data"); `insecure`: the name is provably unsigned; `bogus`: signatures failed;
   * `failed`: no answer (the resolver did not answer, SERVFAIL…). Only `validated` is trusted.
   */
  status: 'validated' | 'insecure' | 'bogus' | 'failed';
  /** Record data in presentation format (`12345 13 2 ABCD…`). */
  records: string[];
  /** Key tags of the RRSIGs over the RRset. */
  signers: number[];
  /** What the resolver said, for logs. */
  detail: string;
}

/** Looks an RRset up over DNS validated from a trust anchor (the CDS scan's only source). */
export interface ValidatedLookup {
  lookup(name: string, type: 'CDS' | 'CDNSKEY' | 'DNSKEY'): Promise<ValidatedAnswer>;
}

export interface DelvOptions {
  /** Resolvers (ip or ip:port; `[v6]:port`) the queries go through, tried in turn; empty: the system's. */
  resolvers: string[];
  /** A `trust-anchors { … };` file; none: delv's built-in root key. */
  anchorsFile?: string;
  /** The name the anchors are for (`.` by default): delv's `+root=`. */
  root?: string;
  delvPath?: string;
  timeoutMs?: number;
}

/**
 * Validation by `delv` (Debian's bind9-dnsutils, BIND's own validator): it asks the configured
 * resolver with the DO and CD bits and checks every signature from the trust anchor down itself,
 * so the panel trusts neither the resolver nor the path to it — only the anchor (the root key
 * built into delv, or the operator's anchors file). Hand-writing RRSIG verification would be a
 * second DNSSEC validator to get right; asking for the AD bit would trust the resolver and the
 * network between. Run with an argument array, never a shell.
 */
export class DelvLookup implements ValidatedLookup {
  constructor(private readonly options: DelvOptions) {}

  async lookup(name: string, type: 'CDS' | 'CDNSKEY' | 'DNSKEY'): Promise<ValidatedAnswer> {
    const servers = this.options.resolvers.length > 0 ? this.options.resolvers : [undefined];
    let last: ValidatedAnswer = { status: 'failed', records: [], signers: [], detail: 'no resolver' };
    for (const server of servers) {
      last = parseDelv(await this.run(server, name, type), type);
      if (last.status !== 'failed') return last;
    }
    return last;
  }

  private run(server: string | undefined, name: string, type: string): Promise<string> {
    const args = ['+nomultiline', '+norrcomments', '+dnssec', '+nottl'];
    if (server) {
      const { host, port } = splitServer(server);
      args.push(`@${host}`, '-p', String(port));
    }
    if (this.options.anchorsFile) args.push('-a', this.options.anchorsFile);
    if (this.options.root) args.push(`+root=${this.options.root}`);
    args.push(`${name.replace(/\.$/, '')}.`, type);
    return new Promise((resolve) => {
      execFile(
        this.options.delvPath ?? 'delv',
        args,
        { timeout: this.options.timeoutMs ?? 20_000, env: { PATH: process.env.PATH } },
        // delv prints its verdict on stdout (answers) and stderr (failures); both are read.
        (error, stdout, stderr) => resolve(`${stdout}\n${stderr}${error && !stdout && !stderr ? error.message : ''}`),
      );
    });
  }
}

/** `1.2.3.4`, `1.2.3.4:5300`, `::1`, `[::1]:5300` → host and port. */
export function splitServer(server: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { host: bracketed[1] as string, port: Number(bracketed[2] ?? 53) };
  const parts = server.split(':');
  if (parts.length === 2) return { host: parts[0] as string, port: Number(parts[1]) };
  return { host: server, port: 53 };
}

/**
 * delv's output: a verdict comment (`; fully validated`, `; negative response, fully validated`,
 * `; unsigned answer`, `;; resolution failed: …`, `;; validation failed…`/`; … bogus`) and the
 * RRset with its RRSIGs (`name. IN CDS 12345 13 2 ABCD…`, `+nottl`).
 */
export function parseDelv(output: string, type: string): ValidatedAnswer {
  const detail = output.trim().split('\n').slice(0, 3).join(' ').slice(0, 300);
  const records: string[] = [];
  const signers: number[] = [];
  for (const line of output.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 4 || line.startsWith(';') || fields[1] !== 'IN') continue;
    if (fields[2] === type) records.push(fields.slice(3).join(' '));
    // RRSIG: covered type, algorithm, labels, original TTL, expiration, inception, key tag, signer, signature
    if (fields[2] === 'RRSIG' && fields[3] === type) signers.push(Number(fields[9]));
  }
  let status: ValidatedAnswer['status'] = 'failed';
  if (/fully validated/.test(output)) status = 'validated';
  else if (/unsigned answer|insecure/.test(output)) status = 'insecure';
  else if (/bogus|validation failed|no valid (signature|RRSIG)|broken trust chain/i.test(output)) status = 'bogus';
  return { status, records: status === 'validated' ? records : [], signers, detail };
}
