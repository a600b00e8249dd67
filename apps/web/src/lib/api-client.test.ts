// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  api,
  apiCall,
  encodeParams,
  errorMessage,
  fileNameFromDisposition,
  mapFieldErrors,
  onJob,
  onSessionLost,
  setBasePath,
} from './api-client';

function envelope(system: Partial<Record<string, unknown>>, data: unknown = {}) {
  return {
    system: {
      valid: true,
      errors: [],
      inputs: [],
      info: [],
      statusCode: 200,
      debug: [],
      job: null,
      mlcVer: '1',
      ...system,
    },
    data,
  };
}

function respond(status: number, body: unknown, headers: Record<string, string> = { 'x-dd': '1' }) {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const fetchMock = vi.fn<typeof fetch>();

function headersOf(init: RequestInit | undefined): Record<string, string> {
  return (init?.headers ?? {}) as Record<string, string>;
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  setBasePath('/p247/');
});
afterEach(() => vi.unstubAllGlobals());

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('envelope rules (spec section 8)', () => {
  it('returns data when HTTP is 2xx and system.valid', async () => {
    fetchMock.mockImplementation(async () => respond(200, envelope({}, { user: 'admin' })));
    await expect(api('user/info/')).resolves.toEqual({ user: 'admin' });
  });

  it('fails a 2xx answer whose system.valid is false, with errors[0] as message', async () => {
    fetchMock.mockImplementation(async () =>
      respond(200, envelope({ valid: false, errors: ['Bad password', 'other'] })),
    );
    const error = await failure(api('user/login/', { username: 'a' }));
    expect(error.message).toBe('Bad password');
  });

  it('fails a non-2xx answer even when system.valid is true', async () => {
    fetchMock.mockImplementation(async () => respond(500, envelope({ valid: true })));
    expect((await failure(api('x/'))).message).toBe('500');
  });

  it("uses '404' / '500' by HTTP status when there is no error text, else 'error'", async () => {
    fetchMock.mockResolvedValueOnce(respond(404, envelope({ valid: false })));
    expect((await failure(api('a/'))).message).toBe('404');
    fetchMock.mockResolvedValueOnce(respond(503, 'Service Unavailable', { 'content-type': 'text/plain' }));
    expect((await failure(api('a/'))).message).toBe('500');
    fetchMock.mockResolvedValueOnce(respond(400, 'nope', { 'content-type': 'text/plain' }));
    expect((await failure(api('a/'))).message).toBe('error');
    fetchMock.mockRejectedValueOnce(new TypeError('network down'));
    expect((await failure(api('a/'))).message).toBe('error');
  });

  it('errorMessage follows the same order', () => {
    expect(errorMessage(200, { errors: ['x'] })).toBe('x');
    expect(errorMessage(404, { errors: [] })).toBe('404');
    expect(errorMessage(500, null)).toBe('500');
    expect(errorMessage(403, { errors: [] })).toBe('error');
  });
});

describe('field errors', () => {
  it('matches inputs and errors by position, with Error when there is no text', () => {
    expect(
      mapFieldErrors({ inputs: ['domainName', 'password', 'username'], errors: ['Unknown domain', 'Too short'] }),
    ).toEqual([
      { field: 'domainName', message: 'Unknown domain' },
      { field: 'password', message: 'Too short' },
      { field: 'username', message: 'Error' },
    ]);
  });

  it('are carried by the thrown ApiError', async () => {
    fetchMock.mockImplementation(async () =>
      respond(400, envelope({ valid: false, errors: ['Required'], inputs: ['email'] })),
    );
    const error = await failure(api('contactmail/', { email: '' }));
    expect(error.fieldErrors).toEqual([{ field: 'email', message: 'Required' }]);
  });
});

describe('requests', () => {
  it('sends GET without parameters and POST form-encoded with them, always with x-dd-request', async () => {
    fetchMock.mockImplementation(async () => respond(200, envelope({})));
    await api('permission/list/');
    let [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/p247/permission/list/');
    expect(init?.method).toBe('GET');
    expect(init?.credentials).toBe('same-origin');
    expect(headersOf(init)['x-dd-request']).toBe('1');

    await api('user/login/', { domainName: 'demo.test', username: 'admin', dns: ['a', 'b'] });
    [url, init] = fetchMock.mock.calls[1] ?? [];
    expect(init?.method).toBe('POST');
    expect(headersOf(init)['content-type']).toContain('application/x-www-form-urlencoded');
    expect(headersOf(init)['x-dd-request']).toBe('1');
    expect(init?.body).toBe('domainName=demo.test&username=admin&dns=a&dns=b');
  });

  it('can force POST with no body and leave the CSRF header out for the public config call', async () => {
    fetchMock.mockImplementation(async () => respond(200, envelope({})));
    await api('user/info/', undefined, { method: 'POST' });
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    await api('config/get/', undefined, { noCsrfHeader: true });
    expect(headersOf(fetchMock.mock.calls[1]?.[1])['x-dd-request']).toBeUndefined();
  });

  it('sends raw bytes with PUT: the parameters in the query, the CSRF header kept', async () => {
    fetchMock.mockImplementation(async () => respond(200, envelope({}, { received: 3, done: true })));
    const bytes = new Blob(['abc']);
    const data = await api('service/1/files/upload/', { path: 'a b', offset: 0 }, { method: 'PUT', body: bytes });
    expect(data).toEqual({ received: 3, done: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/p247/service/1/files/upload/?path=a+b&offset=0');
    expect(init?.method).toBe('PUT');
    expect(init?.body).toBe(bytes);
    expect(headersOf(init)['content-type']).toBe('application/octet-stream');
    expect(headersOf(init)['x-dd-request']).toBe('1');
  });

  it('encodes repeated keys, booleans and skips empty values', () => {
    expect(
      encodeParams({ 'dns[]': ['ns1', 'ns2'], flag: true, off: false, none: undefined, nil: null }).toString(),
    ).toBe('dns%5B%5D=ns1&dns%5B%5D=ns2&flag=1&off=0');
  });
});

describe('session loss and jobs', () => {
  it('statusCode 101 in any JSON answer calls the session-lost listeners', async () => {
    const lost = vi.fn();
    const off = onSessionLost(lost);
    fetchMock.mockImplementation(async () =>
      respond(401, envelope({ valid: false, statusCode: 101, errors: ['Session expired'] })),
    );
    const error = await failure(api('permission/list/'));
    expect(error.sessionLost).toBe(true);
    expect(lost).toHaveBeenCalledTimes(1);
    off();
  });

  it('a call marked ignoreSessionLost (boot user/info) does not', async () => {
    const lost = vi.fn();
    const off = onSessionLost(lost);
    fetchMock.mockImplementation(async () => respond(401, envelope({ valid: false, statusCode: 101 })));
    await failure(api('user/info/', undefined, { method: 'POST', ignoreSessionLost: true }));
    expect(lost).not.toHaveBeenCalled();
    off();
  });

  it('passes system.job to the job listeners', async () => {
    const jobs = vi.fn();
    const off = onJob(jobs);
    const job = { id: 'j1', status: 'running', progress: 50 };
    fetchMock.mockImplementation(async () => respond(200, envelope({ job })));
    const result = await apiCall('x/');
    expect(result.system.job).toEqual(job);
    expect(jobs).toHaveBeenCalledWith(job);
    off();
  });
});

describe('file answers', () => {
  it('reads the Content-Disposition file name', () => {
    expect(fileNameFromDisposition('attachment; filename="dump.sql.gz"')).toBe('dump.sql.gz');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''c%C3%A0.sql")).toBe('cà.sql');
    expect(fileNameFromDisposition(null, 'x')).toBe('x');
  });
});

describe('a body sent with its progress', () => {
  /** XMLHttpRequest as far as the client uses it: the test plays the network's part. */
  class FakeRequest {
    static last: FakeRequest;
    method = '';
    url = '';
    headers: Record<string, string> = {};
    body: unknown;
    status = 0;
    responseText = '';
    responseType = '';
    private listeners: Record<string, (() => void)[]> = {};
    upload = {
      progress: [] as ((event: { loaded: number }) => void)[],
      addEventListener: (_: 'progress', listener: (event: { loaded: number }) => void) =>
        this.upload.progress.push(listener),
    };
    constructor() {
      FakeRequest.last = this;
    }
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    addEventListener(type: string, listener: () => void) {
      this.listeners[type] = [...(this.listeners[type] ?? []), listener];
    }
    send(body: unknown) {
      this.body = body;
    }
    abort() {
      this.emit('abort');
    }
    getAllResponseHeaders() {
      return 'content-type: application/json\r\nx-dd: 1\r\n';
    }
    emit(type: string) {
      for (const listener of this.listeners[type] ?? []) listener();
    }
    answer(status: number, body: unknown) {
      this.status = status;
      this.responseText = JSON.stringify(body);
      this.emit('load');
    }
  }

  beforeEach(() => vi.stubGlobal('XMLHttpRequest', FakeRequest));
  afterEach(() => vi.unstubAllGlobals());

  it('reports the bytes as they go and reads the answer as a fetch would', async () => {
    const sent: number[] = [];
    const bytes = new Blob(['x'.repeat(10)]);
    const call = apiCall<{ received: number }>(
      'service/1/files/upload/',
      { offset: 0 },
      { method: 'PUT', body: bytes, onSent: (count) => sent.push(count) },
    );
    const request = FakeRequest.last;
    expect(request.method).toBe('PUT');
    expect(request.url).toMatch(/service\/1\/files\/upload\/\?offset=0$/);
    expect(request.headers).toMatchObject({ 'x-dd-request': '1', 'content-type': 'application/octet-stream' });
    expect(request.body).toBe(bytes);
    for (const loaded of [4, 10]) for (const listener of request.upload.progress) listener({ loaded });
    request.answer(200, envelope({}, { received: 10 }));
    expect((await call).data).toEqual({ received: 10 });
    expect(sent).toEqual([4, 10]);
  });

  it('throws the envelope’s error, a network failure and a cancel as fetch calls do', async () => {
    const refused = apiCall('x/', {}, { method: 'PUT', body: new Blob(['a']), onSent: () => {} });
    FakeRequest.last.answer(507, envelope({ valid: false, errors: ['No queda espacio'], statusCode: 507 }, null));
    await expect(refused).rejects.toMatchObject({ status: 507, message: 'No queda espacio' });

    const lost = apiCall('x/', {}, { method: 'PUT', body: new Blob(['a']), onSent: () => {} });
    FakeRequest.last.emit('error');
    await expect(lost).rejects.toBeInstanceOf(ApiError);

    const controller = new AbortController();
    const cancelled = apiCall(
      'x/',
      {},
      { method: 'PUT', body: new Blob(['a']), onSent: () => {}, signal: controller.signal },
    );
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
  });
});
