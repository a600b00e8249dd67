import { useLocation } from 'react-router';

/** The resource id of the current `/admin/{id}/…` route, or null. */
export function itemIdFromPath(pathname: string): number | null {
  const match = /^\/admin\/(\d+)(?:\/|$)/.exec(pathname);
  if (!match?.[1]) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function useCurrentItemId(): number | null {
  return itemIdFromPath(useLocation().pathname);
}
