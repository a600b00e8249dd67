import { DaemonError } from '../../../errors.ts';
import type { EppResponse } from './epp-xml.ts';

/**
 * EPP result codes (RFC 5730 section 3). 1xxx is success (1001: accepted, finished later by the
 * registry; 1300/1301: the poll queue); 2xxx is a refusal, and 25xx also ends the session.
 */
export const EPP_OK = 1000;
export const EPP_PENDING = 1001;
export const EPP_NO_MESSAGES = 1300;
export const EPP_MESSAGE = 1301;
export const EPP_LOGOUT = 1500;
export const EPP_OBJECT_MISSING = 2303;

/** The codes the panel words itself (es/en/ca `registry.epp.<code>`); any other is the generic refusal. */
const WORDED = new Set([
  2001, 2002, 2003, 2004, 2005, 2104, 2105, 2106, 2201, 2202, 2302, 2303, 2304, 2305, 2306, 2307, 2308, 2400, 2500,
  2501, 2502,
]);

export function isSuccess(code: number): boolean {
  return code >= 1000 && code < 2000;
}

/** Whether the registry ends the session after this answer (RFC 5730: 2500-2502). */
export function closesSession(code: number): boolean {
  return code >= 2500 && code <= 2502;
}

/**
 * A registry's refusal: the panel's words for its code, and the registry's own (its message and
 * reason, with the transaction ids) as the detail the operator sees.
 */
export class RegistryRefusedError extends DaemonError {
  constructor(
    readonly code: number,
    readonly response: Pick<EppResponse, 'message' | 'reason' | 'clTRID' | 'svTRID'>,
  ) {
    super(
      WORDED.has(code) ? `registry.epp.${code}` : 'registry.epp.refused',
      `${code} ${response.message}${response.reason ? ` (${response.reason})` : ''} [${response.clTRID}/${response.svTRID}]`,
    );
  }
}

/** The response when it says success, else its refusal as an error. */
export function expectSuccess(response: EppResponse): EppResponse {
  if (!isSuccess(response.code)) throw new RegistryRefusedError(response.code, response);
  return response;
}
