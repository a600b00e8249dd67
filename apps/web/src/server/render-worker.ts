/**
 * The worker thread that draws signed-in pages for the server (apps/server/src/http/server-render.ts).
 * Built by `vite build --config vite.server.config.ts` into dist/server/render-worker.js, with every
 * dependency inside, so a production install runs it without the web app's node_modules.
 *
 * Messages in: `{ id, calls: { url, boot } }` (which first calls the view is drawn with) and
 * `{ id, draw: PageToDraw }`. Out: `{ id, calls }`, `{ id, html }` or `{ id, error }`.
 */
import { parentPort } from 'node:worker_threads';
import type { BootData } from '../lib/boot-data';
import { drawPage, type PageToDraw, viewCalls } from './render-page';

type Ask = { id: number; calls: { url: string; boot: BootData } } | { id: number; draw: PageToDraw };

async function answer(ask: Ask): Promise<Record<string, unknown>> {
  if ('calls' in ask) return { calls: viewCalls(ask.calls.url.split('?')[0] ?? '/', ask.calls.boot) };
  return { html: await drawPage(ask.draw) };
}

parentPort?.on('message', (ask: Ask) => {
  answer(ask).then(
    (result) => parentPort?.postMessage({ id: ask.id, ...result }),
    (error: unknown) =>
      parentPort?.postMessage({ id: ask.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
