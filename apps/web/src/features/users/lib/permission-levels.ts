import { mayGrantLevel, type UserResourcePermissions } from '@panel247/contract/account-users';
import {
  PERMISSION_KEYS,
  PERMISSION_LEVELS,
  type PermissionKey,
  type PermissionLevel,
} from '@panel247/contract/constants';

export type Levels = Record<PermissionKey, PermissionLevel>;
export type PermissionPart = 'domain' | 'service' | 'mail';

const PART_FLAGS = { domain: 'hasDomain', service: 'hasService', mail: 'hasMail' } as const;

/** The part a key belongs to: `servicemail…` is mail, not the hosting service. */
export function partOfKey(key: PermissionKey): PermissionPart {
  if (key.startsWith('servicemail')) return 'mail';
  if (key.startsWith('service')) return 'service';
  return 'domain';
}

/** The parts a resource has (its domain, hosting service, mail) with their keys, in the list's order. */
export function partsOf(
  resource: Pick<UserResourcePermissions, 'hasDomain' | 'hasService' | 'hasMail'>,
): { part: PermissionPart; keys: PermissionKey[] }[] {
  return (Object.keys(PART_FLAGS) as PermissionPart[])
    .filter((part) => resource[PART_FLAGS[part]])
    .map((part) => ({ part, keys: PERMISSION_KEYS.filter((key) => partOfKey(key) === part) }));
}

/**
 * Whether a key may be set to `wanted`: keeping or lowering what the user holds (`saved`) always,
 * raising only up to what the editor holds (`max`) — the contract's rule, which the server applies.
 */
export function mayChoose(resource: UserResourcePermissions, key: PermissionKey, wanted: PermissionLevel): boolean {
  return mayGrantLevel(resource.max[key], resource.levels[key], wanted);
}

/** `wanted`, or the highest level below it that the rule allows on this key. */
export function cappedLevel(resource: UserResourcePermissions, key: PermissionKey, wanted: PermissionLevel) {
  for (let index = PERMISSION_LEVELS.indexOf(wanted); index > 0; index -= 1) {
    const level = PERMISSION_LEVELS[index] as PermissionLevel;
    if (mayChoose(resource, key, level)) return level;
  }
  return 'disabled' satisfies PermissionLevel;
}

/** "All of this resource": every key the resource shows at `wanted`, each capped by the rule. */
export function setAll(resource: UserResourcePermissions, levels: Levels, wanted: PermissionLevel): Levels {
  const next = { ...levels };
  for (const { keys } of partsOf(resource)) {
    for (const key of keys) next[key] = cappedLevel(resource, key, wanted);
  }
  return next;
}

/** Whether the levels shown differ from the saved ones. */
export function levelsChanged(saved: Levels, levels: Levels): boolean {
  return PERMISSION_KEYS.some((key) => saved[key] !== levels[key]);
}
