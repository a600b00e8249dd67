/**
 * npm run bench:lists — the lists that can grow (mail, sites, FTP, redirections), each figure
 * against a baseline measured in the same run (medians):
 *  1. the spec's full answer of a service holding 10,000 rows (what the views loaded before they
 *     paged on the server) over the first page of 10 the web now asks for. Goal ≥ 10;
 *  2. that first page over the first page of a service holding 100 rows: what the size still
 *     costs (the sort of every matching row's key; informative);
 *  3. the same page with a text filter matching about a tenth of the rows, over the baseline of 2.
 * The kinds of call alternate in blocks of 10, so that the load of the machine's neighbours falls
 * on each alike. The panel runs in this process on a SQLite file. A benchmark never fails: it
 * prints and exits 0.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { AdminService, allKeys } from '../src/modules/admin/admin.service.ts';
import { mailRepository } from '../src/modules/mail/mail.repository.ts';
import { LocalEventBus } from '../src/modules/realtime/event-bus.ts';

const SAMPLES = Number(process.env.BENCH_LIST_SAMPLES ?? 200);
const FULL_SAMPLES = 10;
const WARM_UP = 10;
/** Calls of one kind in a row before the next kind's. */
const BLOCK = 10;
const SIZES = { 'big.test': 10_000, 'small.test': 100 } as const;
type Reference = keyof typeof SIZES;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The rows of one list for one service: `n` in 0…count-1, names that sort as the numbers do. */
function rowsOf(list: string, serviceId: number, reference: Reference, count: number, now: number) {
  const name = (n: number) => `${list}${String(n).padStart(5, '0')}`;
  return Array.from({ length: count }, (_, n) => {
    const common = { service_id: serviceId, created_at: now };
    if (list === 'box')
      return {
        ...common,
        local_part: name(n),
        password_hash: 'x',
        quota_bytes: 1 << 20,
        // the mail view's sort key, as the repository writes it (the address in lower case)
        sort_key: `${name(n)}@${reference}`,
      };
    if (list === 'ftp')
      return {
        ...common,
        login: `${name(n)}@${serviceId}.test`,
        folder: `web/${name(n)}`,
        password_hash: 'x',
        password_sealed: 'x',
        home: `/srv/${name(n)}`,
        eliminable: 1,
      };
    if (list === 'site')
      return {
        ...common,
        subdomain: name(n),
        folder: `sites/${name(n)}`,
        ssl_active: 0,
        cert_pem: '',
        cert_chain_pem: '',
        key_sealed: '',
        eliminable: 1,
      };
    return {
      ...common,
      subdomain: '',
      path: `/${name(n)}`,
      url: `https://target.example/${name(n)}`,
      type: '301',
      iframe_title: '',
      iframe_description: '',
      iframe_keywords: '',
    };
  });
}

const TABLES = { box: 'mailboxes', ftp: 'ftp_accounts', site: 'web_sites', redir: 'web_redirections' } as const;

/** What each list is called with, and the filter that matches about a tenth of its rows ('…1…'). */
const LISTS = [
  { label: 'mail (accounts and aliases)', path: 'mail/list/', rows: 'mail', filter: 'box0001' },
  { label: 'sites', path: 'subdomain/list/', rows: 'subdomains', filter: 'site0001' },
  { label: 'FTP accounts', path: 'ftp/list/', rows: 'ftps', filter: 'ftp0001' },
  { label: 'redirections', path: 'redirection/list/', rows: 'redirection', filter: 'redir0001' },
] as const;

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-bench-lists-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', 'captcha.provider': 'none' });
  const { db } = openDatabase({ sqliteFile: path.join(dataDir, 'panel.sqlite') });
  await migrateToLatest(db);
  const events = new LocalEventBus();
  const { app } = await buildApp({ config, db, events, secretKey: Buffer.alloc(32, 1) });
  const now = Math.floor(Date.now() / 1000);
  const admin = new AdminService(db, events, () => now);
  await admin.ensureBrand({ slug: 'bench', company: 'Bench', isDefault: true });
  await admin.ensureAccount('bench.test', 'bench');
  await admin.ensureUser('bench.test', 'admin', 'bench password 1');
  const ids = {} as Record<Reference, number>;
  for (const [reference, count] of Object.entries(SIZES) as [Reference, number][]) {
    ids[reference] = await admin.ensureResource('bench.test', {
      reference,
      hasService: true,
      hasMail: true,
      serviceExpireTs: now + 86400,
      mailExpireTs: now + 86400,
    });
    await admin.grant('bench.test', 'admin', reference, allKeys('write'));
    // Bulk rows straight into the tables: the figures are about reading big lists, not filling them.
    await db.transaction().execute(async (trx) => {
      for (const [list, table] of Object.entries(TABLES)) {
        const rows = rowsOf(list, ids[reference], reference, count, now);
        // one loop fills four tables: each row is its own table's (rowsOf), which the type cannot follow;
        // mailboxes through the repository, which keeps the service's counts with them
        for (let start = 0; start < rows.length; start += 500) {
          const chunk = rows.slice(start, start + 500) as never;
          if (table === 'mailboxes') await mailRepository.insertMailboxes(trx, chunk);
          else await trx.insertInto(table).values(chunk).execute();
        }
      }
    });
  }

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const login = await fetch(`${address}/p247/user/login/`, {
    method: 'POST',
    headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ domainName: 'bench.test', username: 'admin', password: 'bench password 1' }),
  });
  const headers = { 'x-dd-request': '1', cookie: login.headers.get('set-cookie')?.split(';')[0] ?? '' };

  /** Times one GET; checks its answer. */
  async function timeOne(url: string, check: (data: Record<string, unknown>) => void) {
    const start = performance.now();
    const body = (await fetch(url, { headers }).then((r) => r.json())) as {
      system: { valid: boolean; errors: string[] };
      data: Record<string, unknown>;
    };
    const took = performance.now() - start;
    if (!body.system.valid) throw new Error(`${url}: ${body.system.errors.join(', ')}`);
    check(body.data);
    return took;
  }

  /**
   * The calls timed in alternating blocks (a neighbour's load falls on every kind alike), after a
   * warm-up block: the median and p95 of each.
   */
  async function timeBlocks(calls: { url: string; check: (data: Record<string, unknown>) => void }[], samples: number) {
    const times = calls.map(() => [] as number[]);
    for (const call of calls) for (let i = 0; i < WARM_UP; i++) await timeOne(call.url, call.check);
    for (let done = 0; done < samples; done += BLOCK)
      for (const [index, call] of calls.entries())
        for (let i = 0; i < BLOCK; i++) times[index]?.push(await timeOne(call.url, call.check));
    return times.map((list) => ({ median: percentile(list, 50), p95: percentile(list, 95) }));
  }

  const figure = (value: { median: number; p95: number }) =>
    `median ${ms(value.median).padStart(9)}   p95 ${ms(value.p95).padStart(9)}`;
  console.log(`\nLists paged on the server (panel on SQLite; first page of 10; ${SAMPLES} calls of each)`);
  for (const list of LISTS) {
    const url = (reference: Reference, query: string) =>
      `${address}/p247/service/${ids[reference]}/${list.path}${query ? `?${query}` : ''}`;
    // the main site each service has joins the sites
    const extra = list.rows === 'subdomains' ? 1 : 0;
    const pageOf = (expected: number) => (data: Record<string, unknown>) => {
      if (data.total !== expected || (data[list.rows] as unknown[]).length !== 10)
        throw new Error(`${list.label}: total ${String(data.total)}, expected ${expected}`);
    };
    const [small, big, filtered] = (await timeBlocks(
      [
        { url: url('small.test', 'page=1'), check: pageOf(SIZES['small.test'] + extra) },
        { url: url('big.test', 'page=1'), check: pageOf(SIZES['big.test'] + extra) },
        { url: url('big.test', `page=1&filter=${list.filter}`), check: () => undefined },
      ],
      SAMPLES,
    )) as [{ median: number; p95: number }, { median: number; p95: number }, { median: number; p95: number }];
    // the mail view's own call pages always; the spec's full answers are the two mail calls
    const fullPaths = list.rows === 'mail' ? ['correo/list/', 'alias/list/'] : [list.path];
    const fulls = await timeBlocks(
      fullPaths.map((fullPath) => ({
        url: `${address}/p247/service/${ids['big.test']}/${fullPath}`,
        check: () => undefined,
      })),
      FULL_SAMPLES,
    );
    const full = fulls.reduce((sum, value) => sum + value.median, 0);
    const gain = full / big.median;
    console.log(`  ${list.label}`);
    console.log(`    full answer, 10,000 rows           median ${ms(full).padStart(9)}`);
    console.log(`    first page, 10,000 rows            ${figure(big)}`);
    console.log(`    ratio full / page: ${gain.toFixed(1)}   goal ≥ 10   ${gain >= 10 ? 'met' : 'NOT met'}`);
    console.log(
      `    first page, 100 rows               ${figure(small)}   ratio 10,000 / 100: ${(big.median / small.median).toFixed(2)}`,
    );
    console.log(
      `    filtered first page, 10,000 rows   ${figure(filtered)}   ratio to 10,000: ${(filtered.median / big.median).toFixed(2)}`,
    );
  }
  await app.close();
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 0;
});
