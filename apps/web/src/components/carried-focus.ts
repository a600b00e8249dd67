import { type RefObject, useLayoutEffect } from 'react';

/** Whether the keyboard's focus was on the check when it was swapped for the next one. */
export type CarriedFocus = RefObject<boolean>;

/**
 * Keeps a keyboard user's place while the check is swapped (the facade, the facade shown while the
 * widget's code loads, the widget): one focused when it went hands its focus to the next, whose
 * checkbox takes it. Without it the focus fell to the page, and the next Tab went on from the
 * removed box.
 */
export function useCarriedFocus(carried: CarriedFocus, box: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = box.current;
    let gone = false;
    if (carried.current && element) void takeFocus(element, () => gone);
    carried.current = false;
    return () => {
      gone = true;
      // A layout effect's clean-up runs before React removes the box, so the focus is still in it.
      carried.current = element?.contains(document.activeElement) ?? false;
    };
  }, [carried, box]);
}

/** Focuses `element`'s checkbox (or itself) if the focus is still nowhere, once a custom element has drawn its own. */
async function takeFocus(element: HTMLElement, gone: () => boolean): Promise<void> {
  const checkbox = () =>
    element.matches('input') ? element : element.querySelector<HTMLElement>('input[type="checkbox"]');
  const tag = element.localName;
  if (!checkbox() && tag.includes('-')) {
    // A custom element (the ALTCHA widget) draws its content a task after it is connected.
    await customElements.whenDefined(tag);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  // Only where the focus was lost with the last box: never taken from where the user went since.
  const lost = document.activeElement === document.body || document.activeElement === null;
  if (!gone() && lost) checkbox()?.focus();
}
