import { useLocation } from 'react-router';
import { itemIdFromPath } from './resource-paths';

/** The resource id of the current `/admin/{id}/…` route, or null. */
export function useCurrentItemId(): number | null {
  return itemIdFromPath(useLocation().pathname);
}
