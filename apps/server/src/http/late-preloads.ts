import { createHash } from 'node:crypto';

/** The element that holds a drawn page's chunk list (JSON), read by the script below. */
const LIST_ID = 'panel247-preloads';

/**
 * Adds a `modulepreload` link per listed chunk, in the module scripts' CORS mode (as the links in
 * the HTML are). Fixed text, so the CSP allows it by its hash and no other inline script runs.
 */
const SCRIPT = `for(const href of JSON.parse(document.getElementById('${LIST_ID}').textContent)){const link=document.createElement('link');link.rel='modulepreload';link.crossOrigin='';link.href=href;document.head.append(link)}`;

/** The CSP source that allows the script (security-headers.ts). */
export const LATE_PRELOADS_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;

/**
 * A drawn page's chunks, linked by a script after its rows rather than in its HTML. Links in the
 * HTML are found by the preload scanner as the response starts, and on a warm visit (every file in
 * the cache) Chromium compiled the ~95 modules on the main thread between the parser's chunks, so
 * the rows came up to 400 ms later on half the visits (apps/server/bench/README.md). Added once
 * the parser has passed the rows, they are still asked for before the entry script runs, so on a
 * cold visit no chunk waits for another to have run.
 */
export function latePreloads(hrefs: string[]): string {
  const list = JSON.stringify(hrefs).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${LIST_ID}">${list}</script><script>${SCRIPT}</script>`;
}
