// @vitest-environment jsdom
/// <reference lib="dom" />
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lateStart } from '../../src/http/late-start.ts';

/** A drawn page's end, its inline script run as the browser runs it, once parsed; `hidden`: a background tab. */
function drawnPage(hidden = false, hrefs = ['/assets/view.js', '/assets/list.js']) {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(hidden ? 'hidden' : 'visible');
  document.head.innerHTML = '';
  document.body.innerHTML = `<div id="root">rows</div>${lateStart(hrefs, '/assets/index-Ab1.js')}`;
  // innerHTML does not run scripts: the page's own is put back as a new element, which runs it
  const parsed = document.body.querySelector('script:not([type])');
  const script = document.createElement('script');
  script.textContent = parsed?.textContent ?? '';
  parsed?.replaceWith(script);
  return {
    chunks: () =>
      [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.getAttribute('href')),
    entries: () => [...document.head.querySelectorAll('script[type="module"]')],
  };
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the script that starts a drawn page’s app', () => {
  it('links the chunks and runs the entry once the frame after the next has begun, not while the page is parsed', async () => {
    const page = drawnPage();
    expect(page.chunks()).toEqual([]);
    expect(page.entries()).toEqual([]);
    // the rows' frame: its tiles are still being drawn when its main-thread part is done
    await nextFrame();
    await nextTask();
    expect(page.chunks()).toEqual([]);
    await nextFrame();
    await nextTask();
    expect(page.chunks()).toEqual(['/assets/view.js', '/assets/list.js']);
    const [entry, ...more] = page.entries();
    expect(more).toEqual([]);
    expect(entry?.getAttribute('src')).toBe('/assets/index-Ab1.js');
    // in the module scripts' CORS mode, as the links the build writes
    expect(entry?.getAttribute('crossorigin')).toBe('');
  });

  it('links many chunks a few a task, every one before the entry runs', async () => {
    const hrefs = Array.from({ length: 20 }, (_, n) => `/assets/chunk-${n}.js`);
    const page = drawnPage(false, hrefs);
    await nextFrame();
    await nextFrame();
    await nextTask();
    // the first eight, then the main thread is the browser's again
    expect(page.chunks()).toEqual(hrefs.slice(0, 8));
    expect(page.entries()).toEqual([]);
    await nextTask();
    await nextTask();
    expect(page.chunks()).toEqual(hrefs);
    expect(page.entries()).toHaveLength(1);
  });

  it('starts a page that draws no frame after 3 s, once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    let frame: FrameRequestCallback = () => undefined;
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
      frame = callback;
      return 1;
    });
    const page = drawnPage();
    vi.advanceTimersByTime(2_999);
    expect(page.entries()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(page.entries()).toHaveLength(1);
    // the frame that comes at last does not run it again
    frame(0);
    vi.runAllTimers();
    expect(page.entries()).toHaveLength(1);
  });

  it('starts a hidden tab’s app at once: it draws no frame', () => {
    const page = drawnPage(true);
    expect(page.entries().map((entry) => entry.getAttribute('src'))).toEqual(['/assets/index-Ab1.js']);
    expect(page.chunks()).toHaveLength(2);
  });
});
