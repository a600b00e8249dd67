import { useLocation } from 'react-router';
import { parseId } from './resource-paths';

/** The resource id of the current `/admin/{id}/…` route, or null. */
export function itemIdFromPath(pathname: string): number | null {
  const match = /^\/admin\/(\d+)(?:\/|$)/.exec(pathname);
  // read as the views' gates read it, so the frame never loads an item the view refuses
  return parseId(match?.[1]);
}

export function useCurrentItemId(): number | null {
  return itemIdFromPath(useLocation().pathname);
}
