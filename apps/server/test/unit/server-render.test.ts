import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PageRenderer, rendererFile } from '../../src/http/server-render.ts';

/** A stand-in for the web build's renderer: its answers are told by the page's url. */
const FAKE_WORKER = `
import { parentPort } from 'node:worker_threads';
parentPort.on('message', ({ id, plan, draw }) => {
  if (plan) return parentPort.postMessage({ id, draws: true, calls: [{ queryKey: ['k'], path: 'a/' }], modules: ['m.tsx'] });
  if (draw.url === '/medium/') return setTimeout(() => parentPort.postMessage({ id, html: 'medium' }), 600);
  if (draw.url === '/slow/') return setTimeout(() => parentPort.postMessage({ id, html: 'late' }), 2000);
  if (draw.url === '/fails/') return parentPort.postMessage({ id, error: 'no texts for xx' });
  if (draw.url === '/dies/') process.exit(3);
  if (draw.url.startsWith('/gave-up/')) return parentPort.postMessage({ id, html: '<main><!--$!--><template></template><!--/$--><!--$!--><!--/$--></main>' });
  parentPort.postMessage({ id, html: '<p>' + draw.url + '</p>', title: draw.url === '/a/' ? 'A / Acme' : undefined });
});
`;

const PAGE = { language: 'es', boot: {}, hints: { timeZone: 'UTC', phone: false, color: null } };

describe('the page renderer’s worker', () => {
  let dir: string;
  let renderer: PageRenderer;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'panel247-renderer-'));
    writeFileSync(path.join(dir, 'worker.mjs'), FAKE_WORKER);
  });
  afterEach(() => renderer.close());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const start = (options = { timeoutMs: 3000, maxWaiting: 8, startMs: 0 }) => {
    renderer = new PageRenderer(path.join(dir, 'worker.mjs'), pino({ level: 'silent' }), options);
    return renderer;
  };
  const html = async (url: string) => (await renderer.draw({ ...PAGE, url })).html;

  it('answers each page with its own HTML, pages side by side', async () => {
    start();
    const pages = await Promise.all(['/a/', '/b/', '/c/'].map((url) => html(url)));
    expect(pages).toEqual(['<p>/a/</p>', '<p>/b/</p>', '<p>/c/</p>']);
    expect(await renderer.plan('/a/', {})).toEqual({
      draws: true,
      calls: [{ queryKey: ['k'], path: 'a/' }],
      modules: ['m.tsx'],
    });
    expect(await renderer.draw({ ...PAGE, url: '/a/' })).toEqual({ html: '<p>/a/</p>', title: 'A / Acme' });
    expect(await renderer.draw({ ...PAGE, url: '/b/' })).toEqual({ html: '<p>/b/</p>', title: null });
  });

  it('warns of each page React left parts of to the browser, with its path and not its query', async () => {
    const warnings: Record<string, unknown>[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    renderer = new PageRenderer(path.join(dir, 'worker.mjs'), log, { timeoutMs: 3000, maxWaiting: 8, startMs: 0 });
    expect(await html('/gave-up/?search=ana')).toContain('<!--$!-->');
    expect(await html('/a/')).toBe('<p>/a/</p>');
    expect(warnings).toEqual([
      expect.objectContaining({ path: '/gave-up/', boundaries: 2, msg: 'part of a page left to the browser' }),
    ]);
    expect(JSON.stringify(warnings)).not.toContain('ana');
  });

  it('fails a page that takes too long, or that the renderer could not draw, and goes on with the next', async () => {
    start({ timeoutMs: 300, maxWaiting: 8, startMs: 0 });
    await expect(renderer.draw({ ...PAGE, url: '/slow/' })).rejects.toThrow('took too long');
    await expect(renderer.draw({ ...PAGE, url: '/fails/' })).rejects.toThrow('no texts for xx');
    expect(await html('/a/')).toBe('<p>/a/</p>');
  });

  it('gives a starting worker’s first page longer: it loads the bundle and the texts first', async () => {
    start({ timeoutMs: 300, maxWaiting: 8, startMs: 2000 });
    expect(await html('/medium/')).toBe('medium');
    await expect(renderer.draw({ ...PAGE, url: '/medium/' })).rejects.toThrow('took too long');
  });

  it('fails the pages of a worker that died, and starts a new one for the next page', async () => {
    start();
    await expect(renderer.draw({ ...PAGE, url: '/dies/' })).rejects.toThrow('exited (3)');
    expect(await html('/b/')).toBe('<p>/b/</p>');
  });

  it('refuses a page when too many are waiting, rather than making every page wait', async () => {
    start({ timeoutMs: 3000, maxWaiting: 2, startMs: 0 });
    const slow = [1, 2].map(() => renderer.draw({ ...PAGE, url: '/slow/' }).catch((error: Error) => error.message));
    await expect(renderer.draw({ ...PAGE, url: '/a/' })).rejects.toThrow('busy');
    await renderer.close();
    expect(await Promise.all(slow)).toEqual(['the page renderer stopped', 'the page renderer stopped']);
  });

  it('is found beside the web build only when the build made it', () => {
    expect(rendererFile(dir)).toBeNull();
  });
});
