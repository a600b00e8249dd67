/** How an address names a resource: `/admin/{id}/…` (the web app's routes, read alike by the server's page). */

/** A positive whole id written plainly ('12', never '012', '1e3' or ' 12'), or null. */
export function parseId(text: string | null | undefined): number | null {
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 && String(value) === text ? value : null;
}

/** The resource id of an `/admin/{id}/…` address, or null. */
export function itemIdFromPath(pathname: string): number | null {
  const match = /^\/admin\/(\d+)(?:\/|$)/.exec(pathname);
  // read as the views' gates read it, so the frame never loads an item the view refuses
  return parseId(match?.[1]);
}
