import { NODE_NAME_PATTERN } from '../../modules/nodes/node-rules.ts';
import type { PlacementPins } from '../../modules/nodes/placement.service.ts';
import { PLACED_ROLES, type PlacedRole } from '../../modules/nodes/placement-roles.ts';
import { CliError } from '../command.ts';

/** A server's name as the node commands and `resource add --node` take it. */
export function nodeName(value: string): string {
  if (!NODE_NAME_PATTERN.test(value))
    throw new CliError(`'${value}' is not a server name: lower-case letters, digits and inner hyphens, up to 63`);
  return value;
}

/** `web=NAME,mail=NAME`: the servers a new service's parts go to (`resource add --node`). */
export function placementPins(value: string): PlacementPins {
  const pins: PlacementPins = {};
  for (const pair of value.split(',')) {
    const [role, name, ...rest] = pair.split('=').map((part) => part.trim());
    if (!(PLACED_ROLES as readonly string[]).includes(role ?? '') || name === undefined || rest.length > 0)
      throw new CliError(`--node must be a comma list of ROLE=SERVER, ROLE one of ${PLACED_ROLES.join(', ')}`);
    if (pins[role as PlacedRole] !== undefined) throw new CliError(`--node names ${role} twice`);
    pins[role as PlacedRole] = nodeName(name);
  }
  return pins;
}
