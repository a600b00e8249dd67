/** Spec section 9: the city lookup waits 200 ms after the last change. */
export const ADDRESS_LOOKUP_DEBOUNCE_MS = 200;
