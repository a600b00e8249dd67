import { buildApp } from '../src/app.ts';
import { nowSeconds } from '../src/db/database.ts';
import { AdminService, allKeys } from '../src/modules/admin/admin.service.ts';
import { createDnsService } from '../src/modules/dns/dns.service.ts';
import { BENCH_PASSWORD, openBenchRuntime } from './bench-runtime.ts';
import { answerParent } from './bench-support.ts';

/**
 * The panel under the mixed load of mixed.bench.ts, in a process of its own: ACCOUNTS customers,
 * each with one domain + hosting + mail resource, its DNS zone, and a session.
 */

export interface MixedSession {
  cookie: string;
  serviceId: number;
  /** An A record of the service's zone, edited by the load's write call. */
  recordId: number;
}

export interface MixedReady {
  port: number;
  kind: string;
  sessions: MixedSession[];
}

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 50);

async function main() {
  const { config, runtime } = await openBenchRuntime({
    ...(process.env.BENCH_POOL_SIZE ? { databasePoolSize: process.env.BENCH_POOL_SIZE } : {}),
    // As many logins as the setup makes from one address are not an attack here.
    'limits.loginPerIp': 10_000,
  });
  const admin = new AdminService(runtime.db, runtime.events, () => nowSeconds());
  const dns = createDnsService(runtime.db, config, runtime.dnsDriver, () => nowSeconds());
  const customers: { domainName: string; serviceId: number }[] = [];
  for (let i = 1; i <= ACCOUNTS; i++) {
    const domainName = `m${String(i).padStart(3, '0')}.bench.test`;
    await admin.ensureAccount(domainName, 'default');
    await admin.ensureUser(domainName, 'bench', BENCH_PASSWORD);
    const serviceId = await admin.ensureResource(domainName, {
      reference: domainName,
      hasDomain: true,
      hasService: true,
      hasMail: true,
      domainExpireTs: nowSeconds() + 365 * 86_400,
      serviceExpireTs: nowSeconds() + 365 * 86_400,
      mailExpireTs: nowSeconds() + 365 * 86_400,
    });
    await admin.grant(domainName, 'bench', domainName, allKeys('write'));
    await dns.ensureZoneOf(serviceId, domainName, domainName);
    customers.push({ domainName, serviceId });
  }

  const { app } = await buildApp({
    config,
    db: runtime.db,
    events: runtime.events,
    jobs: runtime.jobs,
    secretKey: Buffer.alloc(32, 1),
  });
  const sessions: MixedSession[] = [];
  for (const { domainName, serviceId } of customers) {
    const response = await app.inject({
      method: 'POST',
      url: `${config.basePath}user/login/`,
      headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ domainName, username: 'bench', password: BENCH_PASSWORD }).toString(),
    });
    const cookie = response.cookies.find((c) => c.name.endsWith('p247_sid'));
    if (!cookie) throw new Error(`login to ${domainName} failed: ${response.body}`);
    const record = await runtime.db
      .selectFrom('dns_records')
      .select('id')
      .where('service_id', '=', serviceId)
      .where('type', '=', 'A')
      .where('eliminable', '=', 1)
      .executeTakeFirstOrThrow();
    sessions.push({ cookie: `${cookie.name}=${cookie.value}`, serviceId, recordId: record.id });
  }

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const ready: MixedReady = { port: Number(new URL(address).port), kind: runtime.kind, sessions };
  process.send?.({ type: 'ready', ready });
  answerParent(async () => {
    await app.close();
    await runtime.close();
    process.exit(0);
  });
}

main().catch((error) => {
  process.send?.({ type: 'error', message: (error as Error).stack ?? String(error) });
  process.exit(1);
});
