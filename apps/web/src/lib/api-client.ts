import { CSRF_HEADER, DEFAULT_BASE_PATH, JSON_MARK_HEADER, STATUS_SESSION_LOST } from '@panel247/contract/constants';
import type { System } from '@panel247/contract/envelope';

/**
 * The one way the web app talks to the API. Implements the envelope rules of spec section 8:
 * a JSON answer fails unless the HTTP status is 2xx AND system.valid; the message is
 * system.errors[0], else '404'/'500' by HTTP status, else 'error'.
 */

export type ParamValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Params = Record<string, ParamValue>;

export type Job = NonNullable<System['job']>;

export interface FieldError {
  field: string;
  message: string;
}

/** A failed call. `message` is already the raw server text or one of 'error' | '404' | '500'. */
export class ApiError extends Error {
  readonly status: number;
  readonly system: System | null;
  readonly fieldErrors: FieldError[];
  readonly sessionLost: boolean;

  constructor(message: string, status: number, system: System | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.system = system;
    this.fieldErrors = system ? mapFieldErrors(system) : [];
    this.sessionLost = system?.statusCode === STATUS_SESSION_LOST;
  }
}

export interface ApiResult<T> {
  data: T;
  system: System;
}

export interface FileResult {
  blob: Blob;
  fileName: string;
}

/** Inputs and errors are matched by position; a field without its own text gets 'Error'. */
export function mapFieldErrors(system: Pick<System, 'inputs' | 'errors'>): FieldError[] {
  return system.inputs.map((field, index) => ({ field, message: system.errors[index] || 'Error' }));
}

/** The message of a failed answer, by the rules of spec section 8. */
export function errorMessage(status: number, system: Pick<System, 'errors'> | null): string {
  const first = system?.errors[0];
  if (first) return first;
  if (status === 404) return '404';
  if (status >= 500) return '500';
  return 'error';
}

type Listener<T> = (value: T) => void;
const sessionLostListeners = new Set<Listener<void>>();
const jobListeners = new Set<Listener<Job>>();

/** Called when any JSON answer carries statusCode 101 (unless the call asked not to). */
export function onSessionLost(listener: () => void): () => void {
  sessionLostListeners.add(listener);
  return () => sessionLostListeners.delete(listener);
}

/** Called with system.job whenever an answer carries one. */
export function onJob(listener: (job: Job) => void): () => void {
  jobListeners.add(listener);
  return () => jobListeners.delete(listener);
}

let basePath = DEFAULT_BASE_PATH;
let forcedLanguage: string | null = null;

export function setBasePath(path: string): void {
  basePath = path.endsWith('/') ? path : `${path}/`;
}

export function getBasePath(): string {
  return basePath;
}

/** When set, every call carries `language` (only when the language is forced, spec section 7). */
export function setForcedLanguage(language: string | null): void {
  forcedLanguage = language;
}

export interface RequestOptions {
  /** Force the method; by default a call without parameters is a GET, otherwise a POST. */
  method?: 'GET' | 'POST' | 'PUT';
  /**
   * Raw bytes to send as the body (an upload's chunk), as application/octet-stream; the
   * parameters then travel in the query.
   */
  body?: Blob;
  /**
   * Told the bytes of `body` sent so far, as they go (an upload's progress). The call then goes by
   * XMLHttpRequest: fetch says nothing of what it has sent.
   */
  onSent?: (bytes: number) => void;
  /** Do not open the session-loss modal on statusCode 101 (boot's user/info: 101 = not logged in). */
  ignoreSessionLost?: boolean;
  /** Skip the CSRF header (only the public GET calls that the server exempts). */
  noCsrfHeader?: boolean;
  signal?: AbortSignal;
}

/** Form-encodes params; arrays repeat their key (`dns[]=a&dns[]=b`); null/undefined are left out. */
export function encodeParams(params: Params): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value) body.append(key, String(item));
    } else if (typeof value === 'boolean') {
      body.append(key, value ? '1' : '0');
    } else {
      body.append(key, String(value));
    }
  }
  return body;
}

function buildRequest(path: string, params: Params | undefined, options: RequestOptions) {
  const all: Params = { ...(params ?? {}) };
  if (forcedLanguage) all.language = forcedLanguage;
  const hasParams = params !== undefined && Object.keys(params).length > 0;
  const method = options.method ?? (hasParams ? 'POST' : 'GET');
  const body = encodeParams(all);
  let url = `${basePath}${path}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (!options.noCsrfHeader) headers[CSRF_HEADER] = '1';
  const init: RequestInit = { method, credentials: 'same-origin', headers, signal: options.signal };
  if (method === 'GET' || options.body) {
    const query = body.toString();
    if (query) url += `${url.includes('?') ? '&' : '?'}${query}`;
    if (options.body) {
      headers['content-type'] = 'application/octet-stream';
      init.body = options.body;
    }
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    init.body = body.toString();
  }
  return { url, init };
}

function notifySystem(system: System | null, options: RequestOptions): void {
  if (!system) return;
  if (system.job) for (const listener of jobListeners) listener(system.job);
  if (system.statusCode === STATUS_SESSION_LOST && !options.ignoreSessionLost) {
    for (const listener of sessionLostListeners) listener();
  }
}

function isSystem(value: unknown): value is System {
  if (!value || typeof value !== 'object') return false;
  const system = value as Partial<System>;
  return typeof system.valid === 'boolean' && Array.isArray(system.errors) && Array.isArray(system.inputs);
}

async function readEnvelope(response: Response): Promise<{ system: System | null; data: unknown }> {
  const marked = response.headers.has(JSON_MARK_HEADER);
  const type = response.headers.get('content-type') ?? '';
  if (!marked && !type.includes('json')) return { system: null, data: null };
  try {
    const json = (await response.json()) as { system?: unknown; data?: unknown };
    // Tolerate a server that leaves optional parts of `system` out.
    const defaults: Omit<System, 'valid' | 'errors' | 'inputs'> = {
      info: [],
      debug: [],
      job: null,
      statusCode: 0,
      mlcVer: '',
    };
    const system: System | null = isSystem(json?.system) ? { ...defaults, ...json.system } : null;
    return { system, data: json?.data ?? null };
  } catch {
    return { system: null, data: null };
  }
}

/** The answer's headers as XMLHttpRequest gives them ("name: value" lines). */
function responseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * fetch's request by XMLHttpRequest, reporting the body's bytes as they are sent, answered as
 * fetch would: a Response, a TypeError when the network fails, an AbortError when cancelled.
 */
function sendWithProgress(url: string, init: RequestInit, onSent: (bytes: number) => void): Promise<Response> {
  return new Promise((resolve, reject) => {
    const aborted = () => new DOMException('The upload was cancelled', 'AbortError');
    if (init.signal?.aborted) return reject(aborted());
    const request = new XMLHttpRequest();
    request.open(init.method ?? 'GET', url);
    for (const [name, value] of Object.entries(init.headers as Record<string, string>)) {
      request.setRequestHeader(name, value);
    }
    // the answer is an envelope: JSON text
    request.responseType = 'text';
    request.upload.addEventListener('progress', (event) => onSent(event.loaded));
    request.addEventListener('load', () =>
      resolve(
        new Response(request.responseText, {
          status: request.status,
          headers: responseHeaders(request.getAllResponseHeaders()),
        }),
      ),
    );
    request.addEventListener('error', () => reject(new TypeError('Failed to send')));
    request.addEventListener('abort', () => reject(aborted()));
    init.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(init.body as XMLHttpRequestBodyInit | null);
  });
}

/** Calls the API and returns data and system, or throws ApiError. */
export async function apiCall<T>(path: string, params?: Params, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const { url, init } = buildRequest(path, params, options);
  let response: Response;
  try {
    response = await (options.onSent ? sendWithProgress(url, init, options.onSent) : fetch(url, init));
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError('error', 0, null);
  }
  const { system, data } = await readEnvelope(response);
  notifySystem(system, options);
  if (!response.ok || !system?.valid) {
    throw new ApiError(errorMessage(response.status, system), response.status, system);
  }
  return { data: data as T, system };
}

/** Like apiCall but only the data. */
export async function api<T>(path: string, params?: Params, options?: RequestOptions): Promise<T> {
  return (await apiCall<T>(path, params, options)).data;
}

/** The file name of a Content-Disposition header (RFC 6266 `filename*` first). */
export function fileNameFromDisposition(header: string | null, fallback = 'download'): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = plain?.[2] ?? plain?.[1];
  return name ? name.trim() : fallback;
}

/** Downloads a file answer; a JSON answer instead (x-dd) is an envelope and follows its rules. */
export async function apiFile(path: string, params?: Params, options: RequestOptions = {}): Promise<FileResult> {
  const { url, init } = buildRequest(path, params, options);
  const response = await fetch(url, init);
  if (response.headers.has(JSON_MARK_HEADER)) {
    const { system } = await readEnvelope(response);
    notifySystem(system, options);
    throw new ApiError(errorMessage(response.status, system), response.status, system);
  }
  if (!response.ok) throw new ApiError(errorMessage(response.status, null), response.status, null);
  const fileName = fileNameFromDisposition(response.headers.get('content-disposition'));
  return { blob: await response.blob(), fileName };
}
