import type { NodeParts } from '../composition/node-parts.ts';
import type { DatabasesDriver } from '../drivers/databases/databases.driver.ts';
import type { MailDriver } from '../drivers/mail/mail.driver.ts';
import type { WebDriver } from '../drivers/web/web.driver.ts';
import type { NodeChannel } from './channel-client.ts';

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
 * The node parts of a panel instance apart from its server (PANEL_AGENT=separate): what the
 * server alone holds is read through its agent (node-reads.ts). Their changes already go through
 * the work log to the agent, so nothing here writes.
 */
export function readingThroughChannel(parts: NodeParts, channel: NodeChannel): NodeParts {
  const web = overriding<WebDriver>(parts.web.driver, {
    errorLog: (serviceId) => channel.read('web.errorLog', [serviceId]),
  });
  const mail = overriding<MailDriver>(parts.mail.driver, {
    usage: ({ domain, localPart }) =>
      channel.figure(`mail ${domain}/${localPart}`, (withinMs) =>
        channel.read('mail.usage', [{ domain, localPart }], withinMs),
      ),
    foreignFilter: (mailbox) =>
      channel.read('mail.foreignFilter', [{ domain: mailbox.domain, localPart: mailbox.localPart }]),
  });
  const databases = overriding<DatabasesDriver>(parts.databases.driver, {
    usage: async (names) => new Map(await channel.read('databases.usage', [names])),
    dump: (name) => channel.readStream('databases.dump', [name]),
  });
  return {
    ...parts,
    web: { ...parts.web, driver: web },
    mail: { ...parts.mail, driver: mail },
    databases: { ...parts.databases, driver: databases },
  };
}
