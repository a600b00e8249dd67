import { createHash } from 'node:crypto';

/** The element that holds a drawn page's chunk list (JSON) and names its entry script, read by the script below. */
const LIST_ID = 'panel247-preloads';

/**
 * Once the rows' frame has been drawn, adds a `modulepreload` link per listed chunk, eight a task
 * (each costs about a millisecond of the main thread: all ~90 in one task held it 90-140 ms), and
 * then the entry script, in the module scripts' CORS mode (as the links in the HTML are). A task
 * posted from the next animation frame runs when that frame's main-thread part is done, while its
 * tiles are still rastered and composited on other threads: started there, the chunks' loading and
 * compiling shared two cores with them, and a warm visit's rows were presented 200-250 ms after
 * their frame left the main thread. The frame after it begins once the compositor has taken the
 * rows' frame in (in a trace, about 20 ms before it was presented), so the app starts from there.
 * A hidden tab draws no frame: it starts at once; a page that draws none for another reason starts
 * after 3 s. In a block: its names stay its own. Fixed text, so the CSP allows it by its hash and
 * no other inline script runs.
 */
const SCRIPT = `{const list=document.getElementById('${LIST_ID}');const hrefs=JSON.parse(list.textContent);const start=()=>{for(const href of hrefs.splice(0,8)){const link=document.createElement('link');link.rel='modulepreload';link.crossOrigin='';link.href=href;document.head.append(link)}if(hrefs.length)return setTimeout(start,0);const entry=document.createElement('script');entry.type='module';entry.crossOrigin='';entry.src=list.dataset.entry;document.head.append(entry)};let started=false;const once=()=>{if(!started){started=true;start()}};if(document.visibilityState==='hidden')once();else{requestAnimationFrame(()=>requestAnimationFrame(()=>setTimeout(once,0)));setTimeout(once,3000)}}`;

/** The CSP source that allows the script (security-headers.ts). */
export const LATE_START_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;

/**
 * How a drawn page starts the app: by a script after its rows, once they are on screen, rather
 * than by the entry script in its head. On a returning visit every file is in the cache, and the
 * browser ran the entry script as soon as the HTML was parsed: evaluating its modules (React,
 * Mantine, the router: 390 ms in a trace on this machine) came before the rows' first frame, which
 * waited for it (apps/server/bench/README.md). The page links no script in its HTML either: links
 * there are found by the preload scanner as the response starts, and on a warm visit Chromium
 * compiled the modules on the main thread before the rows (a `modulepreload` of the entry alone:
 * about 200 ms). So `hrefs` are the entry's own chunks and the view's, every one linked before the
 * entry runs: on a first visit too, no chunk waits for another to have run.
 */
export function lateStart(hrefs: string[], entry: string): string {
  // a path the build wrote (index-page.ts reads it with a pattern that allows nothing else)
  if (!/^[\w./-]+$/.test(entry)) throw new Error(`not an entry script's path: ${entry}`);
  const list = JSON.stringify(hrefs).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${LIST_ID}" data-entry="${entry}">${list}</script><script>${SCRIPT}</script>`;
}
