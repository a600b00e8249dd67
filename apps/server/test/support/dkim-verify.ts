import { execFileAsync, requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import type { PowerDns } from '../../../../scripts/daemons/powerdns.ts';

/**
 * Verifies every DKIM-Signature of a message (stdin) with python3-dkim, the key records given as
 * JSON (name → TXT) instead of a DNS lookup: the test fetched them from PowerDNS with dig.
 */
const VERIFY = `
import sys, json, dkim
records = json.loads(sys.argv[1])
def txt(name, timeout=5):
    value = records.get(name.decode().rstrip('.'))
    return value.encode() if value is not None else None
message = sys.stdin.buffer.read()
d = dkim.DKIM(message)
results = []
for index, header in enumerate(h for h in d.headers if h[0].lower() == b'dkim-signature'):
    tags = dkim.util.parse_tag_value(b''.join(header[1].split()))
    ok = dkim.DKIM(message).verify(idx=index, dnsfunc=txt)
    results.append({'s': tags[b's'].decode(), 'd': tags[b'd'].decode(), 'a': tags[b'a'].decode(), 'ok': bool(ok)})
print(json.dumps(results))
`;

export interface DkimResult {
  s: string;
  d: string;
  a: string;
  ok: boolean;
}

/** `dig +short` TXT lines (each a record of quoted strings) as the records' texts. */
export function txtOf(lines: string[]): string[] {
  return lines.map((line) => [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).join(''));
}

/** Every signature of a message checked against the key records PowerDNS serves for `domain` (dig). */
export async function verifyDkim(message: string, domain: string, pdns: PowerDns): Promise<DkimResult[]> {
  const python = requireBinary('python3', 'python3-dkim');
  const selectors = [...message.matchAll(/\bs=([a-z0-9-]+);/g)].map((m) => m[1] as string);
  const records: Record<string, string> = {};
  for (const selector of selectors) {
    const name = `${selector}._domainkey.${domain}`;
    const [text] = txtOf(await pdns.dig(name, 'TXT'));
    if (text) records[name] = text;
  }
  const run = execFileAsync(python, ['-c', VERIFY, JSON.stringify(records)]);
  run.child.stdin?.end(message);
  return JSON.parse((await run).stdout) as DkimResult[];
}
