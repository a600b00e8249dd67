import { XMLParser } from 'fast-xml-parser';

/**
 * EPP's XML (RFC 5730): the envelope of a command and the reading of a greeting or a response.
 * Commands are written from templates whose every value goes through `xmlText` (no value is ever
 * markup); responses are read with fast-xml-parser, prefixes dropped: a response's shape is
 * known from the command that asked for it, whatever prefixes the registry chose.
 */

export const EPP_NS = 'urn:ietf:params:xml:ns:epp-1.0';
export const DOMAIN_NS = 'urn:ietf:params:xml:ns:domain-1.0';
export const HOST_NS = 'urn:ietf:params:xml:ns:host-1.0';
export const CONTACT_NS = 'urn:ietf:params:xml:ns:contact-1.0';
export const SECDNS_NS = 'urn:ietf:params:xml:ns:secDNS-1.1';
export const RGP_NS = 'urn:ietf:params:xml:ns:rgp-1.0';

/** Text or an attribute's value, escaped. */
export function xmlText(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>';

/** A whole EPP document around `inner` (a `<hello/>` or a `<command>`). */
export function eppDocument(inner: string): string {
  return `${HEAD}<epp xmlns="${EPP_NS}">${inner}</epp>`;
}

/** A command: its verb's element, its extension elements if any, and the client's transaction id. */
export function eppCommand(verb: string, extension: string, clTRID: string): string {
  const ext = extension ? `<extension>${extension}</extension>` : '';
  return eppDocument(`<command>${verb}${ext}<clTRID>${xmlText(clTRID)}</clTRID></command>`);
}

/** Elements that may repeat: always read as lists, so one and many read the same. */
const LISTS = new Set([
  'result',
  'objURI',
  'extURI',
  'status',
  'hostObj',
  'hostAttr',
  'hostAddr',
  'host',
  'addr',
  'contact',
  'dsData',
  'keyData',
  'postalInfo',
  'street',
  'cd',
  'rgpStatus',
  'value',
  'extValue',
  'lang',
  'version',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // a DOCTYPE could declare entities: EPP has none, and a registry's frame never needs one
  processEntities: true,
  isArray: (name) => LISTS.has(name),
});

// biome-ignore lint/suspicious/noExplicitAny: parsed XML is checked field by field where it is read
export type XmlNode = any;

/** The text of an element read with attributes (`{ '#text': …, '@ip': … }`) or without. */
export function textOf(node: XmlNode): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'object') return String(node['#text'] ?? '');
  return String(node);
}

export function parseEpp(xml: string): XmlNode {
  if (/<!DOCTYPE/i.test(xml)) throw new Error('EPP frame with a DOCTYPE');
  const parsed = parser.parse(xml) as XmlNode;
  if (!parsed?.epp) throw new Error('not an EPP document');
  return parsed.epp;
}

/** What a registry's greeting announces (RFC 5730 section 2.4). */
export interface EppGreeting {
  serverId: string;
  objects: string[];
  extensions: string[];
}

export function readGreeting(epp: XmlNode): EppGreeting {
  const greeting = epp.greeting;
  if (!greeting) throw new Error('EPP: expected a greeting');
  const menu = greeting.svcMenu ?? {};
  return {
    serverId: textOf(greeting.svID),
    objects: (menu.objURI ?? []).map(textOf),
    extensions: (menu.svcExtension?.extURI ?? []).map(textOf),
  };
}

/** One response (RFC 5730 section 2.6): its first result, what it carries and its transaction ids. */
export interface EppResponse {
  code: number;
  message: string;
  /** The registry's own words on why (`<extValue><reason>`), when it gives them. */
  reason: string;
  resData: XmlNode;
  extension: XmlNode;
  /** The poll queue: how many messages wait and the first one's id, date and text. */
  queue?: { count: number; id: string; date: string; message: string };
  clTRID: string;
  svTRID: string;
}

export function readResponse(epp: XmlNode): EppResponse {
  const response = epp.response;
  if (!response) throw new Error('EPP: expected a response');
  const result = response.result?.[0] ?? {};
  const reason = (result.extValue ?? []).map((value: XmlNode) => textOf(value.reason)).join('; ');
  const queue = response.msgQ;
  return {
    code: Number(result['@code']),
    message: textOf(result.msg),
    reason,
    resData: response.resData ?? {},
    extension: response.extension ?? {},
    ...(queue
      ? {
          queue: {
            count: Number(queue['@count'] ?? 0),
            id: String(queue['@id'] ?? ''),
            date: textOf(queue.qDate),
            message: textOf(queue.msg),
          },
        }
      : {}),
    clTRID: textOf(response.trID?.clTRID),
    svTRID: textOf(response.trID?.svTRID),
  };
}
