/**
 * The worker thread that draws signed-in pages for the server (apps/server/src/http/server-render.ts).
 * Built by `vite build --config vite.server.config.ts` into dist/server/render-worker.js, with every
 * dependency inside, so a production install runs it without the web app's node_modules.
 *
 * Messages in: `{ id, plan: { url, boot } }` (whether the page is drawn, and with which first
 * calls and modules) and `{ id, draw: PageToDraw }`. Out: `{ id, draws, calls, modules }`,
 * `{ id, html, title }` or `{ id, error }`.
 */
import { parentPort } from 'node:worker_threads';
import type { BootData } from '../lib/boot-data';
import { drawPage, drawPlan, type PageToDraw } from './render-page';

type Ask = { id: number; plan: { url: string; boot: BootData } } | { id: number; draw: PageToDraw };

async function answer(ask: Ask): Promise<Record<string, unknown>> {
  if ('plan' in ask) return { ...drawPlan(ask.plan.url, ask.plan.boot) };
  return { ...(await drawPage(ask.draw)) };
}

parentPort?.on('message', (ask: Ask) => {
  answer(ask).then(
    (result) => parentPort?.postMessage({ id: ask.id, ...result }),
    (error: unknown) =>
      parentPort?.postMessage({ id: ask.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
