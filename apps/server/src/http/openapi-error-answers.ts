import { systemSchema } from '@panel247/contract/envelope';
import { z } from 'zod';

/**
 * What every failed call answers (error-handler.ts, and the router's own 400/404): the envelope
 * with `valid` false, the messages in `errors` (the fields they concern in `inputs`), no job and no
 * data. Exported so that the tests hold the server's real error answers against it.
 */
export const errorEnvelopeSchema = z.object({
  system: systemSchema.extend({ valid: z.literal(false), job: z.null() }),
  data: z.null(),
});

/** The answers an operation can name by reference, each the error envelope. */
const ERROR_ANSWERS = {
  BadRequest: {
    status: '400',
    description:
      'Invalid parameters (`system.inputs` names each field, `system.errors` says what is wrong, by ' +
      'position), or a malformed request (body, content type, percent-escape).',
  },
  Unauthorized: {
    status: '401',
    description:
      'No valid session (`system.statusCode` 101: log in again), or the API token is malformed, ' +
      'unknown, expired or revoked (`system.statusCode` 401).',
  },
  Forbidden: {
    status: '403',
    description:
      'Not allowed: the level on the resource is read-only, the call takes the session only (a ' +
      'token is refused), the second factor must be set up first, or a browser call failed the CSRF ' +
      'rule (no `x-dd-request: 1` header, or another origin).',
  },
  NotFound: {
    status: '404',
    description: 'Unknown id: also the answer for a resource of another account or outside the token’s scope.',
  },
  Failure: {
    status: 'default',
    description:
      'Any other failure, in the same envelope: 409 (a plan limit or a state that does not allow the ' +
      'change), 429 (too many attempts: logins, codes, the contact form), 502 (a server or daemon ' +
      'refused or did not answer; nothing was applied), 507 (the plan’s space is used up), 500.',
  },
} as const;

type ErrorAnswer = keyof typeof ERROR_ANSWERS;

/** The `components` the error answers need: the envelope's schemas and one response per status. */
export function errorComponents(jsonSchema: (schema: z.ZodType) => Record<string, unknown>) {
  const responses: Record<string, unknown> = {};
  for (const [name, { description }] of Object.entries(ERROR_ANSWERS)) {
    responses[name] = {
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return {
    schemas: {
      ErrorSystem: jsonSchema(errorEnvelopeSchema.shape.system),
      ErrorEnvelope: {
        type: 'object',
        properties: {
          system: { $ref: '#/components/schemas/ErrorSystem' },
          data: jsonSchema(errorEnvelopeSchema.shape.data),
        },
        required: Object.keys(errorEnvelopeSchema.shape),
        additionalProperties: false,
      },
    },
    responses,
  };
}

/** What decides which failures a call can answer. */
export interface FailureFacts {
  /** It needs a session or a token (the operation's `security` is not empty). */
  secured: boolean;
  /** Its path names an id (an unknown one is a 404). */
  namesIds: boolean;
  /** A plain GET the CSRF rule lets through without the header (a public one then never answers 403). */
  csrfExempt: boolean;
}

/**
 * The error answers of one operation, by reference. Every call can answer 400: its parameters are
 * parsed, and a malformed request is refused before any route runs (routerErrorHandler).
 */
export function errorAnswersOf(facts: FailureFacts): Record<string, { $ref: string }> {
  const names: ErrorAnswer[] = ['BadRequest'];
  if (facts.secured) names.push('Unauthorized');
  if (facts.secured || !facts.csrfExempt) names.push('Forbidden');
  if (facts.namesIds) names.push('NotFound');
  names.push('Failure');
  return Object.fromEntries(
    names.map((name) => [ERROR_ANSWERS[name].status, { $ref: `#/components/responses/${name}` }]),
  );
}
