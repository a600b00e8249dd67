/**
 * Script text, run before a page's first byte, that notes on `target` (from navigation start):
 * `inserted`, when the first element matching `selector` entered the document, and `painted`, when
 * its text was first on screen: the Element Timing API's render time, the presentation of the frame
 * that drew it, after its style, layout and paint. (A time taken in the next animation frame comes
 * before those, which a plain table does not pay and a drawn page pays most: measured, 100-150 ms
 * of a drawn mail page's first frame; a message posted from there waits behind the app's own tasks.)
 * Every element of the row that holds text is marked when the row is seen, before it is painted.
 */
export const ROW_PAINT_OBSERVER = (selector: string, target: string) => `
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.identifier === 'first-row' && !${target}.painted) ${target}.painted = entry.renderTime || entry.loadTime;
    }
  }).observe({ type: 'element', buffered: true });
  new MutationObserver((_, observer) => {
    const row = document.querySelector(${JSON.stringify(selector)});
    if (!row) return;
    ${target}.inserted ||= performance.now();
    const holdsText = (element) =>
      [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
    const marked = [row, ...row.querySelectorAll('*')].filter(holdsText);
    for (const element of marked) element.setAttribute('elementtiming', 'first-row');
    // a row the parser has not finished has no text yet: its next insertion is seen again
    if (marked.length) observer.disconnect();
  }).observe(document, { subtree: true, childList: true });
`;
