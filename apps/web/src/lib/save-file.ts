import { apiFile, type Params } from './api-client';

/**
 * Downloads an API file and has the browser save it. API calls need the x-dd-request header, which
 * a plain link cannot send, so the api client fetches the file and the browser saves it from a
 * Blob URL, named by the server's Content-Disposition. Returns that name.
 */
export async function saveApiFile(path: string, params?: Params): Promise<string> {
  const { blob, fileName } = await apiFile(path, params, { method: 'GET' });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // revoked later: some browsers still read the URL after click() returns
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}
