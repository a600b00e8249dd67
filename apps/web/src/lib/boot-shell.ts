/**
 * The server draws the login page's frame into index.html (apps/web/shell/login-shell.html) so
 * the first paint needs no script. It covers the app until the real page is mounted; the page's
 * layout removes it from a layout effect, before the browser paints again, so the frame and the
 * page never show together and nothing blinks in between.
 */
export function removeBootShell(): void {
  document.getElementById('boot-shell')?.remove();
}

let sessionHintTaken = false;

/**
 * True once, at boot, when the server saw no session cookie with the page (`data-session="none"`
 * on <html>): nobody is logged in, so the app skips asking the server (whose "no session" answer
 * would be one more round trip and an error in the console). Later checks, after a login, ask.
 */
export function takeNoSessionHint(): boolean {
  if (sessionHintTaken) return false;
  sessionHintTaken = true;
  return document.documentElement.dataset.session === 'none';
}
