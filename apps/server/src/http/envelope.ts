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

/** `{"system":…,"data":` of a plain success: most answers share it, so it is serialised once. */
const PLAIN_SUCCESS_HEAD = `{"system":${JSON.stringify(buildEnvelope(null).system)},"data":`;

/**
 * A success envelope as text around `dataJson` (the data already serialised): the system block of
 * a plain success (no messages, no job) is a constant, so only the data is serialised per call.
 */
export function successEnvelopeJson(dataJson: string, info: string[], job: System['job']): string {
  const head =
    info.length === 0 && !job
      ? PLAIN_SUCCESS_HEAD
      : `{"system":${JSON.stringify(buildEnvelope(null, { info, job }).system)},"data":`;
  return `${head}${dataJson}}`;
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
