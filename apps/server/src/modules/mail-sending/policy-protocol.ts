/**
 * Postfix's SMTP access policy delegation protocol (postfix.org/SMTPD_POLICY_README.html): a
 * request is `name=value` lines, each ending in a newline, closed by an empty line; the answer is
 * one `action=…` line and an empty line; a connection carries one request after another.
 *
 * Written here rather than taken from npm: no maintained Node library of it exists (the few
 * packages are unmaintained or are whole policy daemons), and the protocol is a few lines. Being
 * our own parser, it is strict: a line, the attributes of a request and a request's bytes are
 * capped, and anything that is not `name=value` closes the connection (Postfix then logs the
 * broken connection and retries once, which is the behaviour wanted for a confused peer).
 */

export interface PolicyLimits {
  /** The longest line, newline included, in bytes (Postfix's longest are certificate subjects). */
  maxLineBytes: number;
  /** The most attributes one request may carry (Postfix 3.x sends about 35). */
  maxAttributes: number;
}

export const DEFAULT_POLICY_LIMITS: PolicyLimits = { maxLineBytes: 2048, maxAttributes: 100 };

/** One request's attributes by name (a repeated name keeps its last value, as the README allows). */
export type PolicyRequest = ReadonlyMap<string, string>;

export class PolicyProtocolError extends Error {}

const NEWLINE = 0x0a;
const ATTRIBUTE_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Splits what a connection sends into requests. `push` takes each chunk as it arrives and returns
 * the requests it completed; it throws PolicyProtocolError on anything out of bounds, after which
 * the connection must be closed (the reader keeps no state worth resuming).
 */
export class PolicyRequestReader {
  private pending: Buffer = Buffer.alloc(0);
  private attributes = new Map<string, string>();

  constructor(private readonly limits: PolicyLimits = DEFAULT_POLICY_LIMITS) {}

  /** Whether part of a request has arrived and its end not yet (for the request timeout). */
  get midRequest(): boolean {
    return this.pending.length > 0 || this.attributes.size > 0;
  }

  push(chunk: Buffer): PolicyRequest[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const complete: PolicyRequest[] = [];
    let start = 0;
    for (let end = this.pending.indexOf(NEWLINE, start); end !== -1; end = this.pending.indexOf(NEWLINE, start)) {
      if (end + 1 - start > this.limits.maxLineBytes) throw new PolicyProtocolError('line too long');
      const line = this.pending.subarray(start, end).toString('utf8').replace(/\r$/, '');
      start = end + 1;
      const request = this.takeLine(line);
      if (request) complete.push(request);
    }
    this.pending = this.pending.subarray(start);
    if (this.pending.length >= this.limits.maxLineBytes) throw new PolicyProtocolError('line too long');
    return complete;
  }

  /** Adds one attribute, or ends the request on the empty line and returns it. */
  private takeLine(line: string): PolicyRequest | undefined {
    if (line === '') {
      if (this.attributes.size === 0) throw new PolicyProtocolError('empty request');
      const request = this.attributes;
      this.attributes = new Map();
      return request;
    }
    const equals = line.indexOf('=');
    const name = equals === -1 ? '' : line.slice(0, equals);
    if (!ATTRIBUTE_NAME.test(name)) throw new PolicyProtocolError('not a name=value line');
    this.attributes.set(name, line.slice(equals + 1));
    if (this.attributes.size > this.limits.maxAttributes) throw new PolicyProtocolError('too many attributes');
    return undefined;
  }
}

/**
 * The answer to one request. `action` is an access(5) result (`DUNNO`, `450 4.7.1 text`,
 * `DEFER_IF_PERMIT text`); a line break inside it would end the answer early and start a
 * second one, so it is refused rather than sent.
 */
export function policyReply(action: string): string {
  if (/[\r\n]/.test(action) || action === '') throw new Error('a policy action is one non-empty line');
  return `action=${action}\n\n`;
}
