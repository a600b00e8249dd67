import type { Db } from '../db/database.ts';
import { nodesRepository } from '../modules/nodes/nodes.repository.ts';
import type { PlacedRole } from '../modules/nodes/placement-roles.ts';
import { placementsRepository } from '../modules/nodes/placements.repository.ts';
import { NodeChannel } from './channel-client.ts';

/**
 * The node channels of a panel process to the provider's named servers, one per server: a part
 * of a service is reached through the agent of the server that holds it (service_placements →
 * nodes.channel_url); a part on the unnamed machine is none of these (undefined), and its caller
 * works on it here or through PANEL_AGENT_URL. Looked up at each call, not cached: a move changes
 * the server at once.
 */
export class NodeChannels {
  private readonly byUrl = new Map<string, NodeChannel>();

  constructor(
    private readonly db: Db,
    private readonly token: string,
  ) {}

  /** The channel to the named server holding the service's part; undefined: the unnamed machine holds it. */
  async forService(serviceId: number, role: PlacedRole): Promise<NodeChannel | undefined> {
    const url = await placementsRepository.channelUrlOf(this.db, serviceId, role);
    return url === undefined ? undefined : this.channel(url);
  }

  /** The channel to a named server's agent. */
  async forNode(name: string): Promise<NodeChannel> {
    const node = await nodesRepository.byName(this.db, name);
    if (!node) throw new Error(`no server ${name}`);
    return this.channel(node.channel_url);
  }

  /** The same, for the service named by its domain (its home's name, its mailboxes' domain). */
  async forDomain(domain: string, role: PlacedRole): Promise<NodeChannel | undefined> {
    const serviceId = await placementsRepository.serviceOfDomain(this.db, domain);
    return serviceId === undefined ? undefined : this.forService(serviceId, role);
  }

  /** The same, for the service a database belongs to. */
  async forDatabase(name: string): Promise<NodeChannel | undefined> {
    const serviceId = await placementsRepository.serviceOfDatabase(this.db, name);
    return serviceId === undefined ? undefined : this.forService(serviceId, 'databases');
  }

  /** The service a database of the panel belongs to, and the channel to its server (undefined: the unnamed machine's). */
  async databaseHolder(name: string): Promise<{ serviceId: number; channel: NodeChannel | undefined } | undefined> {
    const serviceId = await placementsRepository.serviceOfDatabase(this.db, name);
    return serviceId === undefined ? undefined : { serviceId, channel: await this.forService(serviceId, 'databases') };
  }

  close(): void {
    for (const channel of this.byUrl.values()) channel.close();
    this.byUrl.clear();
  }

  private channel(url: string): NodeChannel {
    let channel = this.byUrl.get(url);
    if (!channel) {
      channel = new NodeChannel(new URL(url), this.token);
      this.byUrl.set(url, channel);
    }
    return channel;
  }
}
