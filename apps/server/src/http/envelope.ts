import { JSON_MARK_HEADER, STATUS_SESSION_LOST } from '@panel247/contract/constants';
import type { Envelope, System } from '@panel247/contract/envelope';
import type { FastifyReply } from 'fastify';
import { PANEL_VERSION } from '../version.ts';

export { STATUS_SESSION_LOST };

export function buildEnvelope<T>(data: T, system: Partial<System> = {}): Envelope<T> {
  return {
    system: {
      valid: system.valid ?? true,
      errors: system.errors ?? [],
      inputs: system.inputs ?? [],
      info: system.info ?? [],
      statusCode: system.statusCode ?? 200,
      debug: system.debug ?? [],
      job: system.job ?? null,
      mlcVer: PANEL_VERSION,
    },
    data,
  };
}

/**
 * Sends a JSON answer the client recognises by its header; API answers are never cached. A string
 * is an envelope already serialised.
 */
export function sendEnvelope<T>(reply: FastifyReply, httpStatus: number, envelope: Envelope<T> | string) {
  return reply
    .code(httpStatus)
    .header(JSON_MARK_HEADER, '1')
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(envelope);
}

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
