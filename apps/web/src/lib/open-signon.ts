import type { SignonForm } from '@panel247/contract/signon';
import { notifyError, notifyErrorText } from './notify';
import { openSignonTab, sendSignonForm } from './signon-form';

/** The `mutate` of a mutation that asks the API for a sign-on form (WebMail, WebFTP, phpMyAdmin). */
type SignonMutate<V> = (
  variables: V,
  options: { onSuccess: (data: SignonForm) => void; onError: (error: unknown) => void },
) => void;

/**
 * Opens the other application for a row: the tab opens during the click, so no popup blocker
 * stops it, and gets the form once the call answers; a failed call closes it again.
 */
export function openSignon<V>(mutate: SignonMutate<V>, variables: V): void {
  const tab = openSignonTab();
  mutate(variables, {
    onSuccess: (data) => {
      if (!sendSignonForm(data, tab)) notifyErrorText('errors.generic');
    },
    onError: (error) => {
      tab?.close();
      notifyError(error);
    },
  });
}
