import type { NodeParts } from '../composition/node-parts.ts';
import type { DatabasesDriver } from '../drivers/databases/databases.driver.ts';
import type { MailDriver } from '../drivers/mail/mail.driver.ts';
import type { WebDriver } from '../drivers/web/web.driver.ts';
import type { NodeChannel } from './channel-client.ts';
import type { NodeChannels } from './node-channels.ts';

/**
 * A driver whose named methods are answered elsewhere; every other member is the driver's own.
 * (A Proxy rather than a subclass: the drivers are chosen by configuration, and only the reads
 * change hands.)
 */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof T];
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/**
 * The node parts of a panel process that works on servers other than its own: what a server
 * alone holds (node-reads.ts) is read through the agent of the server holding the service's part
 * (`channels`), or, for a part on the unnamed machine, through `unnamed` (an instance apart from
 * it, PANEL_AGENT=separate) or here. Their changes already go through the work log to the right
 * agent; the one write here is a backup's database dump put back, loaded by its server.
 */
export function readingWherePlaced(parts: NodeParts, channels: NodeChannels, unnamed?: NodeChannel): NodeParts {
  const { web, mail, databases } = {
    web: parts.web.driver,
    mail: parts.mail.driver,
    databases: parts.databases.driver,
  };
  const orUnnamed = (channel: NodeChannel | undefined) => channel ?? unnamed;
  const mailChannel = async (domain: string) => orUnnamed(await channels.forDomain(domain, 'mail'));
  const placedWeb = overriding<WebDriver>(web, {
    errorLog: async (serviceId) => {
      const channel = orUnnamed(await channels.forService(serviceId, 'web'));
      return channel ? channel.read('web.errorLog', [serviceId]) : web.errorLog(serviceId);
    },
  });
  const placedMail = overriding<MailDriver>(mail, {
    usage: async (box) => {
      const channel = await mailChannel(box.domain);
      if (!channel) return mail.usage(box);
      const { domain, localPart } = box;
      return channel.figure(`mail ${domain}/${localPart}`, (withinMs) =>
        channel.read('mail.usage', [{ domain, localPart }], withinMs),
      );
    },
    foreignFilter: async (box) => {
      const channel = await mailChannel(box.domain);
      return channel
        ? channel.read('mail.foreignFilter', [{ domain: box.domain, localPart: box.localPart }])
        : mail.foreignFilter(box);
    },
    spamMarked: async (boxes, days) => {
      const first = boxes[0];
      const channel = first ? await mailChannel(first.domain) : undefined;
      if (!channel) return mail.spamMarked(boxes, days);
      const addresses = boxes.map(({ domain, localPart }) => ({ domain, localPart }));
      return channel.read('mail.spamMarked', [addresses, days]);
    },
  });
  const placedDatabases = databasesWherePlaced(databases, channels, unnamed);
  return {
    ...parts,
    web: { ...parts.web, driver: placedWeb },
    mail: { ...parts.mail, driver: placedMail },
    databases: { ...parts.databases, driver: placedDatabases },
  };
}

/**
 * A databases driver whose reads (sizes, dumps) and loads go to the server holding each
 * database (its service's databases part), or to `unnamed` (an instance apart from the unnamed
 * machine), or stay here. Changes go through the work log, never through this.
 */
export function databasesWherePlaced(
  databases: DatabasesDriver,
  channels: NodeChannels,
  unnamed?: NodeChannel,
): DatabasesDriver {
  const databasesChannel = async (name: string | undefined) =>
    (name === undefined ? undefined : await channels.forDatabase(name)) ?? unnamed;
  return overriding<DatabasesDriver>(databases, {
    // one service's databases at a time (its overview, its list): its server answers for all of
    // them in one read; sizes are figures, so a server that does not answer within a figure's
    // deadline shows the last ones read (0 if none) instead of holding the page
    usage: async (names) => {
      if (names.length === 0) return new Map();
      const channel = await databasesChannel(names[0]);
      if (!channel) return databases.usage(names);
      let answer: Promise<Map<string, number>> | undefined;
      const all = (withinMs: number) =>
        (answer ??= channel.read('databases.usage', [names], withinMs).then((entries) => new Map(entries)));
      const sizes = new Map<string, number>();
      for (const name of names)
        sizes.set(
          name,
          await channel.figure(`database ${name}`, async (withinMs) => (await all(withinMs)).get(name) ?? 0),
        );
      return sizes;
    },
    dump: async (name) => {
      const channel = await databasesChannel(name);
      return channel ? channel.readStream('databases.dump', [name]) : databases.dump(name);
    },
    // a backup's dump put back: written by the server holding the database
    load: async (name, sql) => {
      const held = await channels.databaseHolder(name);
      const channel = held?.channel ?? unnamed;
      if (!channel) return databases.load(name, sql);
      if (!held) throw new Error(`${name} is not a database of the panel`);
      return channel.write('databases.load', [held.serviceId, name], sql);
    },
  });
}
