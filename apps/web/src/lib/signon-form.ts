import type { SignonForm } from '@panel247/contract/signon';

/**
 * Sign-on into another application (WebMail, WebFTP, phpMyAdmin): the API answers a form with a
 * one-time token, which the browser posts to that application in a new tab. No password travels.
 * A `get` form opens a page of the panel itself (its file manager as the WebFTP), the fields
 * becoming the query; the tab shares the panel's session.
 */

/** Only http(s) addresses are posted to (never javascript: or data:); without `base`, only absolute ones. */
export function safeAction(action: string, base?: string): string | null {
  try {
    const url = new URL(action, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A hidden form with one hidden input per field, sent to the application's address. */
export function buildSignonForm(doc: Document, data: SignonForm, action: string): HTMLFormElement {
  const form = doc.createElement('form');
  form.method = data.method;
  form.action = action;
  form.style.display = 'none';
  for (const [name, value] of Object.entries(data.fields)) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  return form;
}

/**
 * A tab opened during the click (so no popup blocker stops it) and cut from this page
 * (`opener = null`); once the sign-on data arrives, the form is posted inside that tab.
 */
export function openSignonTab(): Window | null {
  const tab = window.open('about:blank', '_blank');
  if (tab) tab.opener = null;
  return tab;
}

/**
 * Sends the sign-on form in `tab`, or, without one (blocked), from this page to a new tab.
 * Returns false when the address is not http(s).
 */
export function sendSignonForm(data: SignonForm, tab: Window | null): boolean {
  const action = safeAction(data.action, window.location.href);
  if (!action) {
    tab?.close();
    return false;
  }
  const doc = tab ? tab.document : document;
  const form = buildSignonForm(doc, data, action);
  if (!tab) {
    form.target = '_blank';
    form.rel = 'noopener';
  }
  doc.body.append(form);
  form.submit();
  if (!tab) form.remove();
  return true;
}
