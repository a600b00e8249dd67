import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

const notifyErrorText = vi.fn();
vi.mock('./notify', () => ({ notifyErrorText: (key: string) => notifyErrorText(key) }));

const { useRightGuard } = await import('./use-right-guard');

describe('a dialog opened without its right', () => {
  it("says 'main.no_permission' and closes", () => {
    const onClose = vi.fn();
    const { result } = renderHook(() => useRightGuard(true, false, onClose));
    expect(result.current).toBe(false);
    expect(notifyErrorText).toHaveBeenCalledWith('main.no_permission');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('opens normally with the right, and does nothing while closed', () => {
    notifyErrorText.mockClear();
    const onClose = vi.fn();
    expect(renderHook(() => useRightGuard(true, true, onClose)).result.current).toBe(true);
    expect(renderHook(() => useRightGuard(false, false, onClose)).result.current).toBe(true);
    expect(notifyErrorText).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });
});
