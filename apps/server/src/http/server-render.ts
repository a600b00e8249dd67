import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';

/** The web build's page renderer (apps/web/src/server/render-worker.ts), beside the app it draws. */
export function rendererFile(dist: string): string | null {
  const file = path.join(dist, 'server', 'render-worker.js');
  return existsSync(file) ? file : null;
}

/**
 * One of a view's first calls, as the renderer names it (apps/web/src/server/render-page.tsx): its
 * query form-encoded by the app's own api-client rules.
 */
export interface ViewCall {
  queryKey: unknown[];
  path: string;
  query: string;
  /** The field of the answer the view's query holds; none: the whole answer. */
  field?: string;
}

/** The renderer's `DrawPlan`. */
export interface DrawPlan {
  draws: boolean;
  calls: ViewCall[];
  modules: string[];
}

/** What a page is drawn from (the renderer's `PageToDraw`). */
export interface PageToDraw {
  url: string;
  language: string;
  boot: unknown;
  hints: { timeZone: string; phone: boolean; color: string | null };
}

/**
 * How React marks a part of the page it gave up drawing (a component that threw, or code that was
 * not loaded): `renderToString` reports nothing else, and the browser then draws that part itself,
 * with a flash. Every part of a drawn view is meant to be drawn, so each one is worth a warning.
 */
const HANDED_TO_BROWSER = '<!--$!-->';

interface Waiting {
  resolve: (answer: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Draws pages in one worker thread, so a render's CPU (50-150 ms on 2 cores) never holds the API's
 * event loop. A render that takes too long, a worker that dies or a queue that is full is an
 * error: the caller then sends the page the app draws itself, which always works. The worker
 * starts at the first page and again after it died.
 */
export class PageRenderer {
  private worker: Worker | null = null;
  /** The worker has answered once: its bundle and texts are loaded. */
  private warm = false;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(
    private readonly file: string,
    private readonly log: FastifyBaseLogger,
    private readonly options = { timeoutMs: 3000, maxWaiting: 8, startMs: 10_000 },
  ) {}

  /**
   * Whether the page at `url` is drawn for this boot data, the calls whose answers its view is
   * drawn with, and the modules the app then takes it over with (as the build's manifest names them).
   */
  async plan(url: string, boot: unknown): Promise<DrawPlan> {
    const answer = await this.ask({ plan: { url, boot } });
    return {
      draws: answer.draws === true,
      calls: (answer.calls ?? []) as ViewCall[],
      modules: (answer.modules ?? []) as string[],
    };
  }

  /** The HTML of the page's app, and the tab's title its view names (null: the page's own). */
  async draw(page: PageToDraw): Promise<{ html: string; title: string | null }> {
    const answer = await this.ask({ draw: page });
    const html = answer.html as string;
    const handedOver = html.split(HANDED_TO_BROWSER).length - 1;
    if (handedOver > 0)
      this.log.warn({ path: page.url.split('?')[0], boundaries: handedOver }, 'part of a page left to the browser');
    return { html, title: typeof answer.title === 'string' ? answer.title : null };
  }

  /** Stops the worker (the server's close). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('the page renderer stopped'));
    if (worker) await worker.terminate();
  }

  private ask(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.waiting.size >= this.options.maxWaiting) return Promise.reject(new Error('the page renderer is busy'));
    const worker = this.started();
    const id = this.nextId++;
    // a worker's first answer also loads its bundle and every language's texts (about 0.3 s on a
    // quiet machine, seconds on a loaded one): that one page may wait longer
    const limit = this.options.timeoutMs + (this.warm ? 0 : this.options.startMs);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error('the page renderer took too long'));
      }, limit);
      this.waiting.set(id, { resolve, reject, timer });
      worker.postMessage({ id, ...message });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.file);
    // a waiting page must not keep the process alive, nor an idle worker
    worker.unref();
    worker.on('message', (answer: { id: number; error?: string } & Record<string, unknown>) => {
      this.warm = true;
      const waiting = this.waiting.get(answer.id);
      if (!waiting) return;
      this.waiting.delete(answer.id);
      clearTimeout(waiting.timer);
      if (answer.error !== undefined) waiting.reject(new Error(answer.error));
      else waiting.resolve(answer);
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.log.warn({ err: error }, 'the page renderer stopped');
      this.failAll(error);
    };
    worker.on('error', gone);
    this.warm = false;
    worker.on('exit', (code) => gone(new Error(`the page renderer exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
      this.waiting.delete(id);
    }
  }
}
