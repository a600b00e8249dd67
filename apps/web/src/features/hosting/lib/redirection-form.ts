import type { Redirection, RedirectType } from '@panel247/contract/hosting';
import { isRedirectionPath } from '@panel247/contract/hosting-rules';

/** The contract's redirect types (its module carries zod, so the list is repeated; a test keeps them equal). */
export const REDIRECT_TYPE_LIST = ['301', '302', 'frame'] as const satisfies readonly RedirectType[];

const URL_START = /^https?:\/\/[A-Za-z0-9.-]+/i;

export interface RedirectionFormValues {
  /** '' is the main domain. */
  subDomain: string;
  recurso: string;
  urlRedir: string;
  redirType: RedirectType;
  iframeTitle: string;
  iframeDescription: string;
  iframeKeywords: string;
}

export interface RedirectionSavePayload {
  urlRedir: string;
  redirType: RedirectType;
  iframeTitle: string;
  iframeDescription: string;
  iframeKeywords: string;
}

export interface RedirectionCreatePayload extends RedirectionSavePayload {
  subDomain: string;
  recurso: string;
}

export function redirectionValues(redirection: Redirection | null): RedirectionFormValues {
  return {
    subDomain: redirection?.subdominio ?? '',
    recurso: redirection?.recurso ?? '',
    urlRedir: redirection?.url ?? '',
    redirType: redirection?.redirType ?? '301',
    iframeTitle: redirection?.iframeTitle ?? '',
    iframeDescription: redirection?.iframeDescription ?? '',
    iframeKeywords: redirection?.iframeKeywords ?? '',
  };
}

/** The frame texts go only with a frame redirection; what was typed stays in the form meanwhile. */
export function toSavePayload(values: RedirectionFormValues): RedirectionSavePayload {
  const frame = values.redirType === 'frame';
  return {
    urlRedir: values.urlRedir.trim(),
    redirType: values.redirType,
    iframeTitle: frame ? values.iframeTitle.trim() : '',
    iframeDescription: frame ? values.iframeDescription.trim() : '',
    iframeKeywords: frame ? values.iframeKeywords.trim() : '',
  };
}

export function toCreatePayload(values: RedirectionFormValues): RedirectionCreatePayload {
  return {
    subDomain: values.subDomain,
    recurso: values.recurso.trim().replace(/^\/+|\/+$/g, ''),
    ...toSavePayload(values),
  };
}

export function pathError(value: string): string | null {
  return isRedirectionPath(value.trim().replace(/^\/+|\/+$/g, '')) ? null : 'hosting.invalid_path';
}

export function urlError(value: string): string | null {
  const url = value.trim();
  if (url === '') return 'validation.required';
  if (!URL_START.test(url) || /[\s"'`$;{}\\<>]/.test(url)) return 'hosting.invalid_url';
  return null;
}

/** The form's own checks (the server checks again); errors are i18n keys by field. */
export function validateRedirection(values: RedirectionFormValues, creating: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  const url = urlError(values.urlRedir);
  if (url) errors.urlRedir = url;
  if (creating) {
    const path = pathError(values.recurso);
    if (path) errors.recurso = path;
  }
  return errors;
}
