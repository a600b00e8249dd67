import type { Language } from '@panel247/contract/constants';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, DaemonError, FieldErrors, ForbiddenError } from '../errors.ts';
import { translate } from '../i18n/messages.ts';
import { buildEnvelope, sendEnvelope } from './envelope.ts';
import { forLog, requestLanguage } from './request-context.ts';

/** The one place where errors become envelopes. Nothing internal leaves the server. */
export function installErrorHandler(app: FastifyInstance, defaultLanguage: Language) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const language = requestLanguage(request, defaultLanguage);
    if (error instanceof FieldErrors) {
      return sendEnvelope(
        reply,
        error.httpStatus,
        buildEnvelope(null, {
          valid: false,
          statusCode: error.statusCode,
          inputs: error.fields.map((f) => f.field),
          errors: error.fields.map((f) => translate(language, f.messageKey, f.params)),
        }),
      );
    }
    if (error instanceof AppError) {
      if (error instanceof ForbiddenError) {
        request.log.warn(
          { event: 'authorization.refused', url: forLog(request.url), reason: error.messageKey },
          'refused',
        );
      }
      if (error instanceof DaemonError) request.log.error({ event: 'daemon.error', detail: error.detail }, 'daemon');
      return sendEnvelope(
        reply,
        error.httpStatus,
        buildEnvelope(null, {
          valid: false,
          statusCode: error.statusCode,
          errors: [translate(language, error.messageKey, error.params)],
        }),
      );
    }
    const fastifyError = error as FastifyError;
    if (
      typeof fastifyError.statusCode === 'number' &&
      fastifyError.statusCode >= 400 &&
      fastifyError.statusCode < 500
    ) {
      // Malformed bodies, wrong content types, oversized payloads: the client's fault, said plainly.
      return errorEnvelope(reply, fastifyError.statusCode, language, 'error.bad_request');
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendEnvelope(
      reply,
      500,
      buildEnvelope(null, {
        valid: false,
        statusCode: 500,
        errors: [translate(language, 'error.internal')],
        debug: [`request ${request.id}`],
      }),
    );
  });
}

/**
 * Errors the router raises before any route or hook runs: a path segment past the longest a
 * parameter may be (`FST_ERR_MAX_PARAM_LENGTH`) or a malformed percent-escape (`FST_ERR_BAD_URL`).
 * Fastify's own answers skip the hooks (no security headers) and echo the path. Here an API path
 * gets the envelope — a too-long segment names nothing, so it is the unknown id's 404 — and any
 * other path a plain 400; neither repeats the request's path.
 */
export function routerErrorHandler(options: {
  basePath: string;
  defaultLanguage: Language;
  apiHeaders: Record<string, string>;
  documentHeaders: Record<string, string>;
}) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const api = request.url.startsWith(options.basePath);
    reply.headers(api ? options.apiHeaders : options.documentHeaders);
    if (!api) return reply.code(400).type('text/plain; charset=utf-8').send('Bad request');
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return notFoundEnvelope(request, reply, options.defaultLanguage);
    return errorEnvelope(reply, 400, requestLanguage(request, options.defaultLanguage), 'error.bad_request');
  };
}

export function notFoundEnvelope(request: FastifyRequest, reply: FastifyReply, defaultLanguage: Language) {
  return errorEnvelope(reply, 404, requestLanguage(request, defaultLanguage), 'error.not_found');
}

/** A failed answer with one translated message, its status in both the HTTP line and the envelope. */
function errorEnvelope(reply: FastifyReply, status: number, language: Language, messageKey: string) {
  return sendEnvelope(
    reply,
    status,
    buildEnvelope(null, { valid: false, statusCode: status, errors: [translate(language, messageKey)] }),
  );
}
