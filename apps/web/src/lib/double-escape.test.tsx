import { fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDoubleEscape, useDoubleEscape } from './double-escape';

describe('createDoubleEscape', () => {
  it('fires on two Escapes within 200 ms only', () => {
    let now = 1000;
    const onDouble = vi.fn();
    const handle = createDoubleEscape(onDouble, 200, () => now);
    handle({ key: 'Escape' });
    expect(onDouble).not.toHaveBeenCalled();
    now += 150;
    handle({ key: 'Escape' });
    expect(onDouble).toHaveBeenCalledTimes(1);
    // the pair is consumed: a third press starts over
    now += 50;
    handle({ key: 'Escape' });
    expect(onDouble).toHaveBeenCalledTimes(1);
    now += 300;
    handle({ key: 'Escape' });
    expect(onDouble).toHaveBeenCalledTimes(1);
    now += 100;
    handle({ key: 'Enter' });
    handle({ key: 'Escape' });
    expect(onDouble).toHaveBeenCalledTimes(2);
  });
});

function Probe({ onDouble, active = true }: { onDouble: () => void; active?: boolean }) {
  useDoubleEscape(active, onDouble);
  return <input aria-label="probe" />;
}

describe('useDoubleEscape', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());

  it('a single Escape does not close; a double one within 200 ms does', () => {
    const onDouble = vi.fn();
    const { getByLabelText } = render(<Probe onDouble={onDouble} />);
    const input = getByLabelText('probe');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(onDouble).not.toHaveBeenCalled();
    vi.advanceTimersByTime(250);
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(onDouble).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(onDouble).toHaveBeenCalledTimes(1);
  });

  it('does nothing while inactive', () => {
    const onDouble = vi.fn();
    render(<Probe onDouble={onDouble} active={false} />);
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onDouble).not.toHaveBeenCalled();
  });
});
