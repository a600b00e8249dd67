import type { RegistryContactObject, RegistryDomainObject, RegistryState } from './registry-state.ts';

/** A registrar the registry knows: its client id and password (a login's `newPW` changes it). */
export interface Registrar {
  id: string;
  password: string;
}

export interface RegistryRules {
  /** Name servers as host objects (RFC 5731 hostObj), else as attributes (hostAttr, with glue). */
  hostObjects: boolean;
  /** Whether a domain:update may name another registrant; false: a change of holder is a trade here (2306). */
  holderChange: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed command, read field by field below
type Node = any;

/** What the registry does with one command: its answer (given the server's transaction id) and more. */
export interface Outcome {
  /** The command's element, `login`, `domain:update`… */
  name: string;
  clTRID: string;
  response: (svTRID: string) => string;
  /** A login that succeeded (the session's registrar), or null for a logout. */
  login?: Registrar | null;
  close?: boolean;
}

const MESSAGES: Record<number, string> = {
  1000: 'Command completed successfully',
  1300: 'Command completed successfully; no messages',
  1301: 'Command completed successfully; ack to dequeue',
  1500: 'Command completed successfully; ending session',
  2001: 'Command syntax error',
  2002: 'Command use error',
  2003: 'Required parameter missing',
  2005: 'Parameter value syntax error',
  2101: 'Unimplemented command',
  2200: 'Authentication error',
  2201: 'Authorization error',
  2302: 'Object exists',
  2303: 'Object does not exist',
  2304: 'Object status prohibits operation',
  2305: 'Object association prohibits operation',
  2306: 'Parameter value policy error',
  2307: 'Unimplemented object service',
  2308: 'Data management policy violation',
};

const NS = {
  domain: 'urn:ietf:params:xml:ns:domain-1.0',
  host: 'urn:ietf:params:xml:ns:host-1.0',
  contact: 'urn:ietf:params:xml:ns:contact-1.0',
  secDNS: 'urn:ietf:params:xml:ns:secDNS-1.1',
  rgp: 'urn:ietf:params:xml:ns:rgp-1.0',
};

const esc = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const text = (node: Node): string =>
  node === undefined ? '' : typeof node === 'object' ? String(node['#text'] ?? '') : String(node);
const list = (node: Node): Node[] => (node === undefined ? [] : Array.isArray(node) ? node : [node]);

/** The element's children with their prefixes dropped (attributes kept), recursively. */
function unprefixed(node: Node): Node {
  if (Array.isArray(node)) return node.map(unprefixed);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Node> = {};
  for (const [key, value] of Object.entries(node)) {
    const bare = key.startsWith('@') ? key : key.replace(/^[^:]+:/, '');
    out[bare] = unprefixed(value);
  }
  return out;
}

/** The one object element under a verb (`domain:info`), with its namespace and its fields. */
function objectOf(verb: Node): { namespace: string; element: string; fields: Node } | undefined {
  if (!verb || typeof verb !== 'object') return undefined;
  const key = Object.keys(verb).find((k) => !k.startsWith('@') && k !== '#text');
  if (!key) return undefined;
  const [prefix, element] = key.includes(':') ? (key.split(':') as [string, string]) : ['', key];
  const node = verb[key];
  const namespace = String(node?.[prefix ? `@xmlns:${prefix}` : '@xmlns'] ?? '');
  return { namespace, element, fields: unprefixed(node) };
}

function result(code: number, reason = ''): string {
  const why = reason
    ? `<extValue><value><text>${esc(reason)}</text></value><reason>${esc(reason)}</reason></extValue>`
    : '';
  return `<result code="${code}"><msg>${MESSAGES[code] ?? 'Command failed'}</msg>${why}</result>`;
}

function response(
  code: number,
  clTRID: string,
  parts: { reason?: string; msgQ?: string; resData?: string; extension?: string } = {},
) {
  return (svTRID: string) =>
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><response>' +
    result(code, parts.reason) +
    (parts.msgQ ?? '') +
    (parts.resData ? `<resData>${parts.resData}</resData>` : '') +
    (parts.extension ? `<extension>${parts.extension}</extension>` : '') +
    `<trID>${clTRID ? `<clTRID>${esc(clTRID)}</clTRID>` : ''}<svTRID>${svTRID}</svTRID></trID></response></epp>`;
}

class Refusal extends Error {
  constructor(
    readonly code: number,
    readonly reason = '',
  ) {
    super(`${code}`);
  }
}

const refuse = (code: number, reason = ''): never => {
  throw new Refusal(code, reason);
};

/** The answer to a command the schemas refused: 2001, and nothing done. */
export function syntaxError(command: Node): Outcome {
  const clTRID = text(command?.clTRID);
  return { name: 'invalid', clTRID, response: response(2001, clTRID, { reason: 'the command is not valid EPP' }) };
}

export function handleCommand(
  state: RegistryState,
  rules: RegistryRules,
  registrars: Registrar[],
  session: Registrar | undefined,
  command: Node,
): Outcome {
  const clTRID = text(command.clTRID);
  const verb = ['login', 'logout', 'poll', 'check', 'info', 'create', 'update', 'delete', 'renew', 'transfer'].find(
    (name) => command[name] !== undefined,
  ) as string;
  const object = objectOf(command[verb]);
  const prefix = Object.entries(NS).find(([, uri]) => uri === object?.namespace)?.[0] ?? '';
  const name = object ? `${prefix}:${object.element}` : verb;
  try {
    if (verb === 'login') return login(registrars, session, command.login, clTRID);
    if (!session) return refuse(2002, 'not logged in');
    if (verb === 'logout') return { name, clTRID, response: response(1500, clTRID), login: null, close: true };
    if (verb === 'poll') return { name, clTRID, response: poll(state, session, command.poll, clTRID) };
    const extension = extensionsOf(command.extension);
    // What the panel never sends (domain create, renew, transfer, delete; contact delete) this
    // registry answers as a registry without that command does (RFC 5730: 2101).
    const run = HANDLERS[name];
    if (!run) return refuse(2101, `${name}: unimplemented command`);
    return { name, clTRID, response: run({ state, rules, session, fields: object?.fields, extension, clTRID }) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { name, clTRID, response: response(error.code, clTRID, { reason: error.reason }) };
  }
}

function extensionsOf(node: Node): Record<string, Node> {
  const out: Record<string, Node> = {};
  if (!node) return out;
  for (const key of Object.keys(node)) {
    const object = objectOf({ [key]: node[key] });
    const prefix = Object.entries(NS).find(([, uri]) => uri === object?.namespace)?.[0];
    if (prefix && object) out[`${prefix}:${object.element}`] = object.fields;
  }
  return out;
}

function login(registrars: Registrar[], session: Registrar | undefined, fields: Node, clTRID: string): Outcome {
  if (session) return refuse(2002, 'already logged in');
  const registrar = registrars.find((r) => r.id === text(fields.clID) && r.password === text(fields.pw));
  if (!registrar) return { name: 'login', clTRID, response: response(2200, clTRID) };
  const services = list(fields.svcs?.objURI).map(text);
  if (services.some((uri) => !Object.values(NS).includes(uri))) return refuse(2307);
  if (fields.newPW !== undefined) registrar.password = text(fields.newPW);
  return { name: 'login', clTRID, response: response(1000, clTRID), login: registrar };
}

function poll(state: RegistryState, session: Registrar, fields: Node, clTRID: string) {
  const queue = state.queues.get(session.id) ?? [];
  if (fields['@op'] === 'ack') {
    const head = queue[0];
    if (!head || head.id !== String(fields['@msgID'] ?? '')) return refuse(2303, 'no such message');
    queue.shift();
    const next = queue[0];
    return response(1000, clTRID, next ? { msgQ: `<msgQ count="${queue.length}" id="${next.id}"/>` } : {});
  }
  const head = queue[0];
  if (!head) return response(1300, clTRID);
  return response(1301, clTRID, {
    msgQ: `<msgQ count="${queue.length}" id="${head.id}"><qDate>${head.at.toISOString()}</qDate><msg>${esc(head.text)}</msg></msgQ>`,
    ...(head.resData ? { resData: head.resData } : {}),
  });
}

interface Context {
  state: RegistryState;
  rules: RegistryRules;
  session: Registrar;
  fields: Node;
  extension: Record<string, Node>;
  clTRID: string;
}

function sponsored(ctx: Context, domain: RegistryDomainObject | undefined): RegistryDomainObject {
  if (!domain) return refuse(2303);
  if (domain.sponsor !== ctx.session.id) return refuse(2201);
  return domain;
}

function addressesOf(nodes: Node): { ip: 'v4' | 'v6'; address: string }[] {
  return list(nodes).map((addr) => ({ ip: addr['@ip'] === 'v6' ? 'v6' : 'v4', address: text(addr) }));
}

/** A domain:update's name servers, checked against the registry's mode and its hosts. */
function nameserversOf(ctx: Context, ns: Node): RegistryDomainObject['nameservers'] {
  if (!ns) return [];
  const objects = list(ns.hostObj).map((h) => ({ name: text(h).toLowerCase(), addresses: [] }));
  const attributes = list(ns.hostAttr).map((h) => ({
    name: text(h.hostName).toLowerCase(),
    addresses: addressesOf(h.hostAddr),
  }));
  if (ctx.rules.hostObjects && attributes.length > 0) return refuse(2306, 'this registry uses host objects');
  if (!ctx.rules.hostObjects && objects.length > 0) return refuse(2306, 'this registry uses host attributes');
  if (ctx.rules.hostObjects)
    for (const host of objects) if (!ctx.state.hosts.has(host.name)) refuse(2303, `host ${host.name} is unknown`);
  return [...objects, ...attributes];
}

function dsOf(nodes: Node) {
  return list(nodes).map((d) => ({
    keyTag: Number(text(d.keyTag)),
    alg: Number(text(d.alg)),
    digestType: Number(text(d.digestType)),
    digest: text(d.digest).toUpperCase(),
  }));
}

const sameDs = (a: { keyTag: number; digest: string }, b: { keyTag: number; digest: string }) =>
  a.keyTag === b.keyTag && a.digest === b.digest;

const HANDLERS: Record<string, (ctx: Context) => (svTRID: string) => string> = {
  'domain:info'(ctx) {
    const name = text(ctx.fields.name).toLowerCase();
    const domain = ctx.state.domains.get(name);
    if (!domain) return refuse(2303);
    const own = domain.sponsor === ctx.session.id;
    const statuses = domain.statuses.size > 0 ? [...domain.statuses] : ['ok'];
    const ns = domain.nameservers.length
      ? `<domain:ns>${
          ctx.rules.hostObjects
            ? domain.nameservers.map((h) => `<domain:hostObj>${esc(h.name)}</domain:hostObj>`).join('')
            : domain.nameservers
                .map(
                  (h) =>
                    `<domain:hostAttr><domain:hostName>${esc(h.name)}</domain:hostName>${h.addresses.map((a) => `<domain:hostAddr ip="${a.ip}">${esc(a.address)}</domain:hostAddr>`).join('')}</domain:hostAttr>`,
                )
                .join('')
        }</domain:ns>`
      : '';
    const subordinates = [...ctx.state.hosts.values()]
      .filter((h) => h.name.endsWith(`.${domain.name}`))
      .map((h) => `<domain:host>${esc(h.name)}</domain:host>`)
      .join('');
    const resData =
      `<domain:infData xmlns:domain="${NS.domain}"><domain:name>${esc(domain.name)}</domain:name><domain:roid>${domain.roid}</domain:roid>` +
      statuses.map((s) => `<domain:status s="${s}"/>`).join('') +
      `<domain:registrant>${esc(domain.registrant)}</domain:registrant>` +
      domain.contacts.map((c) => `<domain:contact type="${c.type}">${esc(c.id)}</domain:contact>`).join('') +
      ns +
      subordinates +
      `<domain:clID>${esc(domain.sponsor)}</domain:clID><domain:crID>${esc(domain.sponsor)}</domain:crID><domain:crDate>${domain.createdAt.toISOString()}</domain:crDate>` +
      `<domain:exDate>${domain.expiresAt.toISOString()}</domain:exDate>` +
      (own ? `<domain:authInfo><domain:pw>${esc(domain.authInfo)}</domain:pw></domain:authInfo>` : '') +
      '</domain:infData>';
    const ds = domain.ds.length
      ? `<secDNS:infData xmlns:secDNS="${NS.secDNS}">${domain.ds.map((d) => `<secDNS:dsData><secDNS:keyTag>${d.keyTag}</secDNS:keyTag><secDNS:alg>${d.alg}</secDNS:alg><secDNS:digestType>${d.digestType}</secDNS:digestType><secDNS:digest>${d.digest}</secDNS:digest></secDNS:dsData>`).join('')}</secDNS:infData>`
      : '';
    const rgp = domain.rgp.size
      ? `<rgp:infData xmlns:rgp="${NS.rgp}">${[...domain.rgp].map((s) => `<rgp:rgpStatus s="${s}"/>`).join('')}</rgp:infData>`
      : '';
    return response(1000, ctx.clTRID, { resData, ...(ds || rgp ? { extension: ds + rgp } : {}) });
  },

  'domain:update'(ctx) {
    const domain = sponsored(ctx, ctx.state.domains.get(text(ctx.fields.name).toLowerCase()));
    const add = ctx.fields.add ?? {};
    const rem = ctx.fields.rem ?? {};
    const chg = ctx.fields.chg ?? {};
    const restore = ctx.extension['rgp:update'];
    if (restore) {
      if (!domain.rgp.has('redemptionPeriod')) return refuse(2304, 'not in its redemption period');
      domain.rgp.clear();
      domain.statuses.delete('pendingDelete');
      return response(1000, ctx.clTRID);
    }
    const removing = list(rem.status).map((s) => String(s['@s']));
    const adding = list(add.status).map((s) => String(s['@s']));
    if (domain.statuses.has('pendingDelete')) return refuse(2304, 'pending delete');
    // under clientUpdateProhibited the one update allowed is taking that status away
    const onlyUnlocks =
      removing.includes('clientUpdateProhibited') &&
      Object.keys(add).length === 0 &&
      Object.keys(chg).length === 0 &&
      Object.keys(rem).every((key) => key === 'status') &&
      !ctx.extension['secDNS:update'];
    if (domain.statuses.has('clientUpdateProhibited') && !onlyUnlocks) return refuse(2304, 'clientUpdateProhibited');
    // RFC 5731 section 2.3: a domain being transferred takes no update
    if (domain.statuses.has('pendingTransfer')) return refuse(2304, 'pendingTransfer');
    for (const status of [...adding, ...removing])
      if (!status.startsWith('client')) refuse(2306, `${status} is the registry's to set`);

    const addNs = nameserversOf(ctx, add.ns);
    const remNs = nameserversOf(ctx, rem.ns);
    for (const host of remNs)
      if (!domain.nameservers.some((h) => h.name === host.name))
        refuse(2303, `${host.name} is not a name server of ${domain.name}`);
    for (const host of addNs)
      if (domain.nameservers.some((h) => h.name === host.name) && !remNs.some((r) => r.name === host.name))
        refuse(2302, `${host.name} is a name server already`);
    if (chg.registrant !== undefined && !ctx.state.contacts.has(text(chg.registrant)))
      refuse(2303, 'unknown registrant');
    if (chg.registrant !== undefined && !ctx.rules.holderChange && text(chg.registrant) !== domain.registrant)
      refuse(2306, 'a change of holder is a trade at this registry');
    for (const contact of list(add.contact))
      if (!ctx.state.contacts.has(text(contact))) refuse(2303, `unknown contact ${text(contact)}`);
    const secDns = ctx.extension['secDNS:update'];
    const addDs = dsOf(secDns?.add?.dsData);
    const remDs = dsOf(secDns?.rem?.dsData);
    for (const ds of remDs) if (!domain.ds.some((d) => sameDs(d, ds))) refuse(2303, `no DS ${ds.keyTag}`);
    for (const ds of addDs) if (domain.ds.some((d) => sameDs(d, ds))) refuse(2302, `DS ${ds.keyTag} exists`);
    const finalCount = domain.nameservers.length - remNs.length + addNs.length;
    if (finalCount > 13) refuse(2308, 'at most 13 name servers');

    // every check passed: the update applies whole
    domain.nameservers = domain.nameservers.filter((h) => !remNs.some((r) => r.name === h.name)).concat(addNs);
    for (const status of removing) domain.statuses.delete(status);
    for (const status of adding) domain.statuses.add(status);
    domain.contacts = domain.contacts
      .filter((c) => !list(rem.contact).some((r) => text(r) === c.id && r['@type'] === c.type))
      .concat(list(add.contact).map((c) => ({ type: String(c['@type']), id: text(c) })));
    if (chg.registrant !== undefined) domain.registrant = text(chg.registrant);
    if (chg.authInfo?.pw !== undefined) domain.authInfo = text(chg.authInfo.pw);
    domain.ds = domain.ds.filter((d) => !remDs.some((r) => sameDs(d, r))).concat(addDs);
    return response(1000, ctx.clTRID);
  },

  'host:check'(ctx) {
    const names = list(ctx.fields.name).map((n) => text(n).toLowerCase());
    const cds = names
      .map(
        (name) => `<host:cd><host:name avail="${ctx.state.hosts.has(name) ? 0 : 1}">${esc(name)}</host:name></host:cd>`,
      )
      .join('');
    return response(1000, ctx.clTRID, { resData: `<host:chkData xmlns:host="${NS.host}">${cds}</host:chkData>` });
  },

  'host:info'(ctx) {
    const host = ctx.state.hosts.get(text(ctx.fields.name).toLowerCase());
    if (!host) return refuse(2303);
    const resData =
      `<host:infData xmlns:host="${NS.host}"><host:name>${esc(host.name)}</host:name><host:roid>${host.roid}</host:roid>` +
      `<host:status s="${ctx.state.linked(host.name) ? 'linked' : 'ok'}"/>` +
      host.addresses.map((a) => `<host:addr ip="${a.ip}">${esc(a.address)}</host:addr>`).join('') +
      `<host:clID>${esc(host.sponsor)}</host:clID><host:crID>${esc(host.sponsor)}</host:crID><host:crDate>${host.createdAt.toISOString()}</host:crDate></host:infData>`;
    return response(1000, ctx.clTRID, { resData });
  },

  'host:create'(ctx) {
    const name = text(ctx.fields.name).toLowerCase();
    if (ctx.state.hosts.has(name)) return refuse(2302);
    const addresses = addressesOf(ctx.fields.addr);
    const parent = ctx.state.superordinate(name);
    if (parent) {
      if (parent.sponsor !== ctx.session.id) return refuse(2201, `${parent.name} is another registrar's`);
      if (addresses.length === 0) return refuse(2003, 'a subordinate host needs an address');
    } else if (addresses.length > 0) return refuse(2306, 'an external host takes no address');
    ctx.state.hosts.set(name, {
      name,
      roid: ctx.state.roid('HOST'),
      addresses,
      sponsor: ctx.session.id,
      createdAt: new Date(),
    });
    return response(1000, ctx.clTRID, {
      resData: `<host:creData xmlns:host="${NS.host}"><host:name>${esc(name)}</host:name><host:crDate>${new Date().toISOString()}</host:crDate></host:creData>`,
    });
  },

  'host:update'(ctx) {
    const host = ctx.state.hosts.get(text(ctx.fields.name).toLowerCase());
    if (!host) return refuse(2303);
    if (host.sponsor !== ctx.session.id) return refuse(2201);
    const add = addressesOf(ctx.fields.add?.addr);
    const rem = addressesOf(ctx.fields.rem?.addr);
    for (const a of rem)
      if (!host.addresses.some((h) => h.address === a.address)) refuse(2303, `no address ${a.address}`);
    for (const a of add)
      if (host.addresses.some((h) => h.address === a.address)) refuse(2302, `address ${a.address} exists`);
    host.addresses = host.addresses.filter((h) => !rem.some((r) => r.address === h.address)).concat(add);
    return response(1000, ctx.clTRID);
  },

  'host:delete'(ctx) {
    const host = ctx.state.hosts.get(text(ctx.fields.name).toLowerCase());
    if (!host) return refuse(2303);
    if (host.sponsor !== ctx.session.id) return refuse(2201);
    if (ctx.state.linked(host.name)) return refuse(2305, `${host.name} is a name server of a domain`);
    ctx.state.hosts.delete(host.name);
    return response(1000, ctx.clTRID);
  },

  'contact:create'(ctx) {
    const id = text(ctx.fields.id);
    if (ctx.state.contacts.has(id)) return refuse(2302);
    const contact = contactFrom(ctx, id, ctx.fields);
    ctx.state.contacts.set(id, contact);
    return response(1000, ctx.clTRID, {
      resData: `<contact:creData xmlns:contact="${NS.contact}"><contact:id>${esc(id)}</contact:id><contact:crDate>${contact.createdAt.toISOString()}</contact:crDate></contact:creData>`,
    });
  },

  'contact:info'(ctx) {
    const contact = ctx.state.contacts.get(text(ctx.fields.id));
    if (!contact) return refuse(2303);
    const own = contact.sponsor === ctx.session.id;
    const resData =
      `<contact:infData xmlns:contact="${NS.contact}"><contact:id>${esc(contact.id)}</contact:id><contact:roid>${contact.roid}</contact:roid><contact:status s="ok"/>` +
      `<contact:postalInfo type="int"><contact:name>${esc(contact.name)}</contact:name>${contact.org ? `<contact:org>${esc(contact.org)}</contact:org>` : ''}<contact:addr>` +
      contact.street.map((s) => `<contact:street>${esc(s)}</contact:street>`).join('') +
      `<contact:city>${esc(contact.city)}</contact:city>${contact.sp ? `<contact:sp>${esc(contact.sp)}</contact:sp>` : ''}${contact.pc ? `<contact:pc>${esc(contact.pc)}</contact:pc>` : ''}<contact:cc>${esc(contact.cc)}</contact:cc></contact:addr></contact:postalInfo>` +
      (contact.voice ? `<contact:voice>${esc(contact.voice)}</contact:voice>` : '') +
      `<contact:email>${esc(contact.email)}</contact:email><contact:clID>${esc(contact.sponsor)}</contact:clID><contact:crID>${esc(contact.sponsor)}</contact:crID><contact:crDate>${contact.createdAt.toISOString()}</contact:crDate>` +
      (own ? `<contact:authInfo><contact:pw>${esc(contact.authInfo)}</contact:pw></contact:authInfo>` : '') +
      (contact.disclosed
        ? ''
        : '<contact:disclose flag="0"><contact:name type="int"/><contact:addr type="int"/><contact:voice/><contact:email/></contact:disclose>') +
      '</contact:infData>';
    return response(1000, ctx.clTRID, { resData });
  },

  'contact:update'(ctx) {
    const contact = ctx.state.contacts.get(text(ctx.fields.id));
    if (!contact) return refuse(2303);
    if (contact.sponsor !== ctx.session.id) return refuse(2201);
    const chg = ctx.fields.chg ?? {};
    const updated = contactFrom(
      ctx,
      contact.id,
      { ...chg, authInfo: chg.authInfo ?? { pw: contact.authInfo } },
      contact,
    );
    ctx.state.contacts.set(contact.id, updated);
    return response(1000, ctx.clTRID);
  },
};

/** A contact from a create's (or an update's changed) fields over what it was. */
function contactFrom(ctx: Context, id: string, fields: Node, before?: RegistryContactObject): RegistryContactObject {
  const postal = list(fields.postalInfo)[0];
  const addr = postal?.addr;
  const disclose = fields.disclose;
  return {
    id,
    roid: before?.roid ?? ctx.state.roid('CONT'),
    name: postal?.name !== undefined ? text(postal.name) : (before?.name ?? ''),
    org: postal?.org !== undefined ? text(postal.org) : (before?.org ?? ''),
    street: addr ? list(addr.street).map(text) : (before?.street ?? []),
    city: addr ? text(addr.city) : (before?.city ?? ''),
    sp: addr ? text(addr.sp) : (before?.sp ?? ''),
    pc: addr ? text(addr.pc) : (before?.pc ?? ''),
    cc: addr ? text(addr.cc) : (before?.cc ?? ''),
    voice: fields.voice !== undefined ? text(fields.voice) : (before?.voice ?? ''),
    email: fields.email !== undefined ? text(fields.email) : (before?.email ?? ''),
    authInfo: text(fields.authInfo?.pw) || before?.authInfo || '',
    disclosed: disclose ? !['0', 'false'].includes(String(disclose['@flag'])) : (before?.disclosed ?? true),
    sponsor: before?.sponsor ?? ctx.session.id,
    createdAt: before?.createdAt ?? new Date(),
  };
}
