import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { XMLParser } from 'fast-xml-parser';
import { encodeFrame, FrameReader } from '../../../src/drivers/registry/epp/epp-frame.ts';
import { handleCommand, type Registrar, type RegistryRules, syntaxError } from './registry-commands.ts';
import { RegistryState } from './registry-state.ts';
import { schemaProblems } from './schema-check.ts';

/**
 * An EPP registry for the tests, since none installs on these machines without the internet:
 * TLS with client certificates (RFC 5734), the greeting, login and logout, hello, and the
 * domain, host and contact commands with secDNS-1.1 and RGP (handled in registry-commands.ts)
 * on real state. Every frame it receives and sends is checked against the RFCs' schemas with
 * xmllint; `problems` lists any that failed, which a test expects empty.
 */

export interface EppRegistryOptions {
  /** PEM: the registry's certificate and key, and the CA its registrars' certificates come from. */
  cert: string;
  key: string;
  ca: string;
  registrars: Registrar[];
  rules?: Partial<RegistryRules>;
  /** Check every frame against the schemas (default); a benchmark turns it off (one xmllint a frame). */
  schemaCheck?: boolean;
  /** How long the registry takes over each command, as a real one across a network does (0). */
  latencyMs?: number;
}

export interface EppRegistryServer {
  port: number;
  state: RegistryState;
  rules: RegistryRules;
  /** Frames that failed the schemas (received or sent), with the problems. */
  problems: { direction: 'in' | 'out'; frame: string; problems: string[] }[];
  /** Every command received, by element (`domain:update`…) and client transaction id. */
  commands: { command: string; clTRID: string; registrar: string }[];
  /** The next command that matches is executed, then the connection is cut without an answer. */
  cutAfter(command: string): void;
  /** Connections open now. */
  connections(): number;
  close(): Promise<void>;
}

const SERVER_ID = 'Panel247 test registry';

/** Commands parsed with their prefixes, to know each element's namespace. */
const prefixed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

function greeting(): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><greeting>' +
    `<svID>${SERVER_ID}</svID><svDate>${new Date().toISOString()}</svDate><svcMenu><version>1.0</version><lang>en</lang><lang>es</lang>` +
    '<objURI>urn:ietf:params:xml:ns:domain-1.0</objURI><objURI>urn:ietf:params:xml:ns:host-1.0</objURI><objURI>urn:ietf:params:xml:ns:contact-1.0</objURI>' +
    '<svcExtension><extURI>urn:ietf:params:xml:ns:secDNS-1.1</extURI><extURI>urn:ietf:params:xml:ns:rgp-1.0</extURI></svcExtension></svcMenu>' +
    '<dcp><access><all/></access><statement><purpose><admin/><prov/></purpose><recipient><ours/><public/></recipient><retention><stated/></retention></statement></dcp>' +
    '</greeting></epp>'
  );
}

export async function startEppRegistry(options: EppRegistryOptions): Promise<EppRegistryServer> {
  const state = new RegistryState();
  const rules: RegistryRules = { hostObjects: true, holderChange: true, ...options.rules };
  const problems: EppRegistryServer['problems'] = [];
  const commands: EppRegistryServer['commands'] = [];
  const cuts = new Set<string>();
  const sockets = new Set<TLSSocket>();

  /** Whether the frame passed the schemas; one that did not is kept in `problems`. */
  async function checked(direction: 'in' | 'out', frame: string): Promise<boolean> {
    if (options.schemaCheck === false) return true;
    const found = await schemaProblems(frame);
    if (found.length > 0) problems.push({ direction, frame, problems: found });
    return found.length === 0;
  }

  function serve(socket: TLSSocket): void {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const reader = new FrameReader();
    let session: Registrar | undefined;
    let queue = Promise.resolve();
    const send = async (xml: string) => {
      await checked('out', xml);
      if (!socket.destroyed) socket.write(encodeFrame(xml));
    };
    void send(greeting());

    socket.on('data', (chunk: Buffer) => {
      let frames: string[];
      try {
        frames = reader.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const frame of frames) {
        queue = queue.then(async () => {
          const valid = await checked('in', frame);
          const document = prefixed.parse(frame)?.epp;
          if (document?.hello !== undefined) return send(greeting());
          const command = document?.command;
          if (!command) return void socket.destroy();
          // a frame the schemas refuse is a syntax error (RFC 5730: 2001), never executed
          const outcome = valid
            ? handleCommand(state, rules, options.registrars, session, command)
            : syntaxError(command);
          commands.push({ command: outcome.name, clTRID: outcome.clTRID, registrar: session?.id ?? '' });
          if (outcome.login !== undefined) session = outcome.login ?? undefined;
          if (cuts.has(outcome.name)) {
            cuts.delete(outcome.name);
            socket.destroy();
            return;
          }
          if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
          await send(outcome.response(svTRID()));
          if (outcome.close) socket.end();
        });
      }
    });
  }

  const server: Server = createServer(
    {
      cert: options.cert,
      key: options.key,
      ca: options.ca,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    },
    serve,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    state,
    rules,
    problems,
    commands,
    cutAfter: (command) => void cuts.add(command),
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function svTRID(): string {
  return `SV-${randomBytes(6).toString('hex')}`;
}
