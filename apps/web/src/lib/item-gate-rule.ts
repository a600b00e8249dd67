import { isVisible, type PermissionKey } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';

/** What an item's view needs: the item's flag, and at least one visible permission among `requires`. */
export interface ItemGateRule {
  requires: PermissionKey[];
  flag?: 'hasDomain' | 'hasService' | 'hasMail';
}

/** Whether `set` opens a view with `rule` (spec section 2: otherwise the not-found view). */
export function gateOpens(set: PermissionSetData, { requires, flag }: ItemGateRule): boolean {
  if (flag && !set[flag]) return false;
  return requires.length === 0 || requires.some((key) => isVisible(set.permissions[key]));
}
