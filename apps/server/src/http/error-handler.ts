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
      return sendEnvelope(
        reply,
        fastifyError.statusCode,
        buildEnvelope(null, {
          valid: false,
          statusCode: fastifyError.statusCode,
          errors: [translate(language, 'error.bad_request')],
        }),
      );
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

export function notFoundEnvelope(request: FastifyRequest, reply: FastifyReply, defaultLanguage: Language) {
  const language = requestLanguage(request, defaultLanguage);
  return sendEnvelope(
    reply,
    404,
    buildEnvelope(null, { valid: false, statusCode: 404, errors: [translate(language, 'error.not_found')] }),
  );
}
