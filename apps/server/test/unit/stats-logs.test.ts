import { appendFileSync, mkdtempSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tailAccessLog } from '../../src/drivers/stats/access-log-tail.ts';
import { SiteLogs } from '../../src/drivers/stats/site-logs.ts';
import { hostAndMonth, siteOfHost } from '../../src/modules/stats/site-hosts.ts';
import { summarise } from '../../src/modules/stats/stats-summary.ts';

const line = (host: string, day = '01/Dec/2026', path = '/') =>
  `${host} 203.0.113.5 - - [${day}:06:10:01 +0000] "GET ${path} HTTP/1.1" 200 12 "-" "curl/7.88.1"\n`;

/** Everything `tailAccessLog` hands over, and where it stopped. */
async function tail(file: string, state: Awaited<ReturnType<typeof tailAccessLog>>) {
  let text = '';
  const next = await tailAccessLog(file, state, async (lines) => {
    text += lines;
  });
  return { text, state: next };
}

describe('reading a service’s access log', () => {
  it('hands over whole lines only, and the next read starts where it stopped', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'p247-tail-')), 'access.log');
    writeFileSync(file, `${line('a.test')}${line('b.test')}half a li`);
    const first = await tail(file, null);
    expect(first.text).toBe(`${line('a.test')}${line('b.test')}`);
    appendFileSync(file, `ne\n${line('c.test')}`);
    const second = await tail(file, first.state);
    expect(second.text).toBe(`half a line\n${line('c.test')}`);
    expect((await tail(file, second.state)).text).toBe('');
  });

  it('finishes the rotated file by its inode before the new one, and starts over on a file truncated', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'p247-tail-')), 'access.log');
    writeFileSync(file, line('a.test'));
    const first = await tail(file, null);
    // rotated by the panel: nginx writes on into .1 until it reopens, then into a new file
    renameSync(file, `${file}.1`);
    appendFileSync(`${file}.1`, line('late.test'));
    writeFileSync(file, line('new.test'));
    const second = await tail(file, first.state);
    expect(second.text).toBe(`${line('late.test')}${line('new.test')}`);
    writeFileSync(file, line('x.test'));
    // same inode, shorter than where the read stopped: read from its start
    expect((await tail(file, { inode: second.state?.inode ?? '', offset: 10_000 })).text).toBe(line('x.test'));
  });

  it('never reads a log through a link', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'p247-tail-'));
    writeFileSync(path.join(dir, 'secret'), line('secret.test'));
    symlinkSync(path.join(dir, 'secret'), path.join(dir, 'access.log'));
    await expect(tail(path.join(dir, 'access.log'), null)).rejects.toMatchObject({ code: 'ELOOP' });
  });
});

describe('the sites’ kept months', () => {
  it('keeps each site’s month apart, privately, and drops the oldest months first but never a site’s newest', async () => {
    const root = path.join(mkdtempSync(path.join(tmpdir(), 'p247-sitelogs-')), 'stats');
    const logs = new SiteLogs(root);
    await logs.append(7, 'a.test', '2026-10', 'x'.repeat(100));
    await logs.append(7, 'a.test', '2026-11', 'x'.repeat(100));
    await logs.append(7, 'a.test', '2026-12', 'x'.repeat(100));
    await logs.append(7, 'b.a.test', '2026-10', 'x'.repeat(100));
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(statSync(logs.monthFile(7, 'a.test', '2026-12')).mode & 0o777).toBe(0o600);
    const removed = await logs.prune(7, 150);
    expect(removed.map((log) => `${log.host} ${log.month}`)).toEqual(['a.test 2026-10', 'a.test 2026-11']);
    expect((await logs.months(7)).map((log) => `${log.host} ${log.month}`)).toEqual([
      'b.a.test 2026-10',
      'a.test 2026-12',
    ]);
    expect(() => logs.monthFile(7, '../etc', '2026-12')).toThrow();
    expect(() => logs.monthFile(7, 'a.test', '2026-12/../../x')).toThrow();
  });

  it('keeps where the reading stopped, written whole', async () => {
    const logs = new SiteLogs(mkdtempSync(path.join(tmpdir(), 'p247-sitelogs-')));
    expect(await logs.readState(3)).toBeNull();
    await logs.writeState(3, { inode: '42', offset: 1000 });
    expect(await logs.readState(3)).toEqual({ inode: '42', offset: 1000 });
  });
});

describe('sites and months of log lines', () => {
  it('gives each host its site as the web server names them', () => {
    const siteOf = siteOfHost('shop.test', ['', 'blog'], []);
    expect(siteOf('shop.test')).toBe('shop.test');
    expect(siteOf('www.shop.test')).toBe('shop.test');
    expect(siteOf('blog.shop.test')).toBe('blog.shop.test');
    expect(siteOf('other.test')).toBeUndefined();
    // www as a redirection of its own: not the main site's
    expect(siteOfHost('shop.test', [''], ['www'])('www.shop.test')).toBeUndefined();
  });

  it('reads the host and month of a line, and nothing of a line of another format', () => {
    expect(hostAndMonth(line('Shop.Test', '31/Jan/2027'))).toEqual({ host: 'shop.test', month: '2027-01' });
    expect(hostAndMonth('203.0.113.5 - - [01/Dec/2026:06:10:01 +0000] "GET / HTTP/1.1" 200 1')).toBeNull();
    expect(hostAndMonth(line('a.test', '01/Foo/2026'))).toBeNull();
  });
});

describe('a GoAccess report summed up', () => {
  it('reads totals, days, top lists and status codes, and says when countries cannot be told', () => {
    const report = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'goaccess-report.json'), 'utf8'));
    const summary = summarise(report, false);
    expect(summary.totals).toEqual({ visitors: 2, hits: 3, pages: 2, bytes: 1834, notFound: 1 });
    expect(summary.days).toEqual([
      { date: '2026-12-01', visitors: 2, hits: 2, bytes: 1734 },
      { date: '2026-12-02', visitors: 0, hits: 1, bytes: 100 },
    ]);
    expect(summary.pages[0]).toEqual({ path: '/index.php', hits: 1, visitors: 1 });
    expect(summary.referrers).toEqual([{ site: 'google.com', hits: 1 }]);
    expect(summary.statuses).toEqual([
      { code: '200', hits: 2 },
      { code: '404', hits: 1 },
    ]);
    expect(summary.countries).toBeNull();
    expect(
      summarise(
        { geolocation: { data: [{ data: 'Europe', items: [{ data: 'ES Spain', hits: { count: 4 } }] }] } },
        true,
      ).countries,
    ).toEqual([{ country: 'ES Spain', hits: 4 }]);
    // a report missing what it should have counts nothing, rather than failing
    expect(summarise({}, false).totals).toEqual({ visitors: 0, hits: 0, pages: 0, bytes: 0, notFound: 0 });
  });
});
