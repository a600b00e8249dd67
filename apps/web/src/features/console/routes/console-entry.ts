/**
 * The console's door for the router: a module that imports nothing, so the entry chunk (which
 * the customers' login route loads) names this one file instead of the list of every chunk the
 * console needs (Vite's preload list grew the login route's JS by 0.7 KB). That list lives here.
 */
export function loadConsole() {
  return import('./console-route').then((route) => route.withTexts());
}
