/**
 * A browser's part of a sign-on hand-off (phpMyAdmin, WebMail): posts a form and follows the
 * redirects by hand within the first URL's origin, keeping the cookies.
 */
export class FormBrowser {
  private readonly jar = new Map<string, string>();

  private keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (!pair || at < 1) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || value === 'deleted') this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  private cookie(): Record<string, string> {
    return this.jar.size === 0 ? {} : { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  /** Sends the request, then follows up to 10 redirects; returns the last answer and every URL seen. */
  async open(url: URL, init: { method: 'GET' | 'POST'; form?: Record<string, string> }) {
    const visited: string[] = [url.toString()];
    let response = await fetch(url, {
      method: init.method,
      headers: {
        ...this.cookie(),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
    });
    this.keep(response);
    let current = url;
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops += 1) {
      const location = response.headers.get('location');
      if (!location) break;
      current = new URL(location, current);
      visited.push(current.toString());
      // a redirect out of phpMyAdmin (to the panel) is where the journey ends
      if (current.origin !== url.origin) break;
      response = await fetch(current, { headers: this.cookie(), redirect: 'manual' });
      this.keep(response);
    }
    return { response, visited, text: await response.text() };
  }
}
