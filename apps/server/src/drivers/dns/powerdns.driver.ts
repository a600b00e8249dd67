import { DaemonError } from '../../errors.ts';
import { type DnsDriver, DnsRefusedError, DnsUnconfirmedError, type DsRecord, type RRset } from './dns.driver.ts';

export interface PowerDnsOptions {
  /** e.g. http://127.0.0.1:8081 */
  apiUrl: string;
  apiKey: string;
  serverId: string;
  timeoutMs?: number;
  /** Waits before each retry of a transient failure (its length is the number of retries). */
  retryDelaysMs?: number[];
  /**
   * The primary of secondary name servers: zones are `Master` and every change is followed by a
   * NOTIFY, so the secondaries fetch it at once (else PowerDNS's own round sends it within
   * `xfr-cycle-interval`, 60 s).
   */
  primary?: boolean;
}

/**
 * PowerDNS answers 500 "database is locked" when writers of its SQLite backend collide (PowerDNS
 * issue 14564): nothing was written, and the same request succeeds a moment later.
 */
const TRANSIENT = /database is locked|database table is locked|SQLITE_BUSY/i;

/**
 * Requests with the same result however often they are sent: reads, key deletions, and the PATCHes of complete
 * RRsets. A 500 from PowerDNS rolled its transaction back, so these are retried whatever it says:
 * the same collision of SQLite writers sometimes comes back as a bare "Internal Server Error"
 * (seen when a PowerDNS frozen by SIGSTOP wakes up to a queue of changes). A POST (a new zone, a
 * new key) is retried only when PowerDNS says its database was locked.
 */
const IDEMPOTENT = new Set(['GET', 'PATCH', 'DELETE']);

async function isTransient(response: Response): Promise<boolean> {
  return TRANSIENT.test(
    await response
      .clone()
      .text()
      .catch(() => ''),
  );
}

/** Connection failures that happen before a request is sent (fetch puts the code in `cause`). */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function neverSent(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' && NOT_CONNECTED.has(code);
}

interface PdnsRRset {
  name: string;
  type: string;
  ttl: number;
  records: { content: string; disabled: boolean }[];
}

/**
 * PowerDNS Authoritative through its HTTP API: zones are created Native with SOA-EDIT-API so the
 * serial moves on every change; each change is one PATCH of complete RRsets (PowerDNS applies a
 * PATCH atomically and purges its caches, so the next query answers the new data). A 422 means
 * PowerDNS refused the change and wrote nothing; its message says whether the name or the content
 * was the problem (see `refusalReason`).
 */
export class PowerDnsDriver implements DnsDriver {
  readonly kind = 'powerdns' as const;
  readonly publishesZones = true;
  readonly signsZones = true;
  private readonly known = new Set<string>();

  constructor(private readonly options: PowerDnsOptions) {}

  /** One API call; a server error that may pass is retried a few times before it is reported. */
  private async request(method: string, path: string, body?: unknown): Promise<Response> {
    const delays = this.options.retryDelaysMs ?? [100, 300, 900];
    for (let attempt = 0; ; attempt += 1) {
      const response = await this.send(method, path, body);
      const delay = delays[attempt];
      if (delay === undefined || response.status < 500) return response;
      if (!IDEMPOTENT.has(method) && !(await isTransient(response))) return response;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    const url = `${this.options.apiUrl.replace(/\/$/, '')}/api/v1/servers/${encodeURIComponent(this.options.serverId)}${path}`;
    try {
      return await fetch(url, {
        method,
        headers: { 'x-api-key': this.options.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
      });
    } catch (error) {
      const detail = `${method} ${path}: ${(error as Error).message}`;
      // A read that got no answer changed nothing; so did a request that never reached the server.
      if (method === 'GET' || neverSent(error)) throw new DaemonError('dns.error.server_down', detail);
      throw new DnsUnconfirmedError(detail);
    }
  }

  private async expectOk(response: Response, what: string): Promise<void> {
    if (response.ok) return;
    const detail = `${what}: HTTP ${response.status} ${await response.text().catch(() => '')}`.slice(0, 500);
    if (response.status === 422) throw new DnsRefusedError(refusalReason(detail), detail);
    // It answered, so it is not down: busy (still locked after the retries) or failing.
    throw new DaemonError(TRANSIENT.test(detail) ? 'dns.error.server_busy' : 'dns.error.server_failed', detail);
  }

  private zonePath(zone: string): string {
    return `/zones/${encodeURIComponent(`${zone}.`)}`;
  }

  async ensureZone(zone: string, nameservers: string[]): Promise<void> {
    if (this.known.has(zone)) return;
    const existing = await this.request('GET', `${this.zonePath(zone)}?rrsets=false`);
    if (existing.status === 404 || existing.status === 422) {
      const absolute = nameservers.map((ns) => `${ns.replace(/\.$/, '')}.`);
      const created = await this.request('POST', '/zones', {
        name: `${zone}.`,
        kind: this.zoneKind,
        soa_edit_api: 'DEFAULT',
        nameservers: absolute,
        // The SOA names the provider's first name server as primary (PowerDNS's default would not).
        rrsets: [
          {
            name: `${zone}.`,
            type: 'SOA',
            ttl: 3600,
            records: [
              {
                content: `${absolute[0] ?? `ns1.${zone}.`} hostmaster.${zone}. 0 10800 3600 604800 3600`,
                disabled: false,
              },
            ],
          },
        ],
      });
      // 409: created meanwhile by another instance — fine.
      if (created.status !== 409) await this.expectOk(created, `create zone ${zone}`);
      await this.notify(zone);
    } else {
      await this.expectOk(existing, `read zone ${zone}`);
      // a zone made before the secondaries (or after they were given up) takes this server's kind
      const { kind } = (await existing.json()) as { kind: string };
      if (kind !== this.zoneKind) {
        const changed = await this.request('PUT', this.zonePath(zone), { kind: this.zoneKind });
        await this.expectOk(changed, `make zone ${zone} ${this.zoneKind}`);
        await this.notify(zone);
      }
    }
    this.known.add(zone);
  }

  private get zoneKind(): 'Native' | 'Master' {
    return this.options.primary ? 'Master' : 'Native';
  }

  /**
   * Tells the secondaries the zone changed (a primary's only). A NOTIFY that cannot be queued is
   * not the change's failure: the change is in the primary, and PowerDNS's own round notifies
   * them of a serial they have not seen, while a secondary that was away checks every zone's
   * serial when it starts.
   */
  private async notify(zone: string): Promise<void> {
    if (!this.options.primary) return;
    await this.request('PUT', `${this.zonePath(zone)}/notify`).catch(() => undefined);
  }

  async replaceRRsets(zone: string, rrsets: RRset[]): Promise<void> {
    if (rrsets.length === 0) return;
    const response = await this.request('PATCH', this.zonePath(zone), {
      rrsets: rrsets.map((rrset) =>
        rrset.contents.length === 0
          ? { name: rrset.name, type: rrset.type, changetype: 'DELETE' }
          : {
              name: rrset.name,
              type: rrset.type,
              ttl: rrset.ttl,
              changetype: 'REPLACE',
              records: rrset.contents.map((content) => ({ content, disabled: false })),
            },
      ),
    });
    await this.expectOk(response, `patch zone ${zone}`);
    await this.notify(zone);
  }

  async removeZone(zone: string): Promise<void> {
    const response = await this.request('DELETE', this.zonePath(zone));
    this.known.delete(zone);
    if (response.status === 404 || response.status === 422) return;
    await this.expectOk(response, `remove zone ${zone}`);
  }

  async readZone(zone: string): Promise<RRset[] | undefined> {
    const response = await this.request('GET', this.zonePath(zone));
    if (response.status === 404 || response.status === 422) return undefined;
    await this.expectOk(response, `read zone ${zone}`);
    const body = (await response.json()) as { rrsets: PdnsRRset[] };
    return body.rrsets
      .filter((rrset) => rrset.type !== 'SOA')
      .map((rrset) => ({
        name: rrset.name,
        type: rrset.type,
        ttl: rrset.ttl,
        contents: rrset.records.filter((r) => !r.disabled).map((r) => r.content),
      }));
  }

  async dsRecords(zone: string): Promise<DsRecord[]> {
    const keysPath = `${this.zonePath(zone)}/cryptokeys`;
    const listed = await this.request('GET', keysPath);
    await this.expectOk(listed, `list keys of ${zone}`);
    let keys = (await listed.json()) as { active: boolean; ds?: string[] }[];
    if (!keys.some((key) => key.active)) {
      const created = await this.request('POST', keysPath, {
        keytype: 'csk',
        active: true,
        algorithm: 'ECDSAP256SHA256',
      });
      await this.expectOk(created, `create key of ${zone}`);
      await this.keysChanged(zone);
      const again = await this.request('GET', keysPath);
      await this.expectOk(again, `list keys of ${zone}`);
      keys = (await again.json()) as { active: boolean; ds?: string[] }[];
    }
    return activeDs(keys);
  }

  async signedDs(zone: string): Promise<DsRecord[]> {
    const listed = await this.request('GET', `${this.zonePath(zone)}/cryptokeys`);
    // 404: PowerDNS does not have the zone (nothing asked for it yet), so nothing signs it.
    if (listed.status === 404) return [];
    await this.expectOk(listed, `list keys of ${zone}`);
    return activeDs((await listed.json()) as { active: boolean; ds?: string[] }[]);
  }

  /**
   * Deletes every cryptokey of the zone (PowerDNS signs on the fly, so the next answer carries no
   * RRSIG, DNSKEY or NSEC). The panel never sets NSEC3PARAM or PUBLISH-CDS, so no metadata is left
   * behind; a zone PowerDNS does not have has no keys to remove.
   */
  async removeKeys(zone: string): Promise<void> {
    const keysPath = `${this.zonePath(zone)}/cryptokeys`;
    const listed = await this.request('GET', keysPath);
    if (listed.status === 404) return;
    await this.expectOk(listed, `list keys of ${zone}`);
    for (const key of (await listed.json()) as PdnsCryptoKey[]) {
      const removed = await this.request('DELETE', `${keysPath}/${key.id}`);
      // 404/422: gone meanwhile (another instance finishing the same job) — fine.
      if (removed.status !== 404 && removed.status !== 422) await this.expectOk(removed, `delete key of ${zone}`);
    }
    await this.keysChanged(zone);
  }

  /**
   * After the zone's keys changed: its cached answers dropped and, on a primary, its serial raised
   * and its secondaries notified, so they transfer the zone again with its signatures (or without
   * them): a key change alone changes no record, so no serial, and they would keep the old one.
   */
  private async keysChanged(zone: string): Promise<void> {
    await this.flushCache(zone);
    if (!this.options.primary) return;
    const read = await this.request('GET', this.zonePath(zone));
    await this.expectOk(read, `read zone ${zone}`);
    const soa = ((await read.json()) as { rrsets: PdnsRRset[] }).rrsets.find((rrset) => rrset.type === 'SOA');
    const content = soa?.records[0]?.content.split(/\s+/);
    if (!soa || !content || content.length !== 7) return;
    content[2] = String((Number(content[2]) + 1) % 2 ** 32);
    const raised = await this.request('PATCH', this.zonePath(zone), {
      rrsets: [
        {
          name: soa.name,
          type: 'SOA',
          ttl: soa.ttl,
          changetype: 'REPLACE',
          records: [{ content: content.join(' '), disabled: false }],
        },
      ],
    });
    await this.expectOk(raised, `raise the serial of ${zone}`);
    await this.notify(zone);
  }

  /**
   * Drops the zone's answers from PowerDNS's packet and query caches: a key change is not a PATCH,
   * so without it signed answers (DNSKEY, RRSIG) would be served for up to `cache-ttl` more.
   */
  private async flushCache(zone: string): Promise<void> {
    const flushed = await this.request('PUT', `/cache/flush?domain=${encodeURIComponent(`${zone}.`)}`);
    await this.expectOk(flushed, `flush cache of ${zone}`);
  }
}

/** The cryptokeys of a zone as PowerDNS lists them (the fields the panel reads). */
interface PdnsCryptoKey {
  id: number;
  active: boolean;
  ds?: string[];
}

/** The DS records of a zone's active keys, from PowerDNS's cryptokeys list. */
function activeDs(keys: { active: boolean; ds?: string[] }[]): DsRecord[] {
  return keys
    .filter((key) => key.active)
    .flatMap((key) => key.ds ?? [])
    .map((ds) => {
      const [keytag, algorithm, digestType, digest] = ds.split(/\s+/);
      return {
        keytag: Number(keytag),
        algorithm: Number(algorithm),
        digestType: Number(digestType),
        digest: (digest ?? '').toLowerCase(),
      };
    });
}

/**
 * What a PowerDNS 4.7 422 objected to, from its message: "RRset x. IN A: Conflicts with
 * pre-existing RRset" (a CNAME beside other data, seen when records were planted behind the
 * panel's back) is about the name; "Record x./A 'bad': Parsing record content …" and
 * "… Invalid IPv6 address" are about the content.
 */
export function refusalReason(message: string): DnsRefusedError['reason'] {
  if (/conflicts with/i.test(message)) return 'name';
  if (/parsing record content|invalid/i.test(message)) return 'content';
  return 'other';
}
