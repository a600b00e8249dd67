import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { HoverTooltip } from './hover-tooltip';

/** A button under a hover tooltip, with the button's own handlers. */
function renderButton(label: string, handlers: { onMouseEnter?: () => void; onClick?: () => void }) {
  return render(
    <MantineProvider>
      <HoverTooltip label={label}>
        <button type="button" {...handlers}>
          x
        </button>
      </HoverTooltip>
    </MantineProvider>,
  );
}

describe('a hover tooltip', () => {
  it('is not there until the pointer first enters, then opens at once, keeping the button’s own handler', async () => {
    const entered = vi.fn();
    renderButton('Borrar buzón', { onMouseEnter: entered });
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.mouseEnter(screen.getByRole('button'));
    expect(entered).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Borrar buzón');
    fireEvent.mouseLeave(screen.getByRole('button'));
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('has swapped its button before the press that follows the entry in the same tap', () => {
    const clicked = vi.fn();
    renderButton('Borrar', { onClick: clicked });
    const before = screen.getByRole('button');
    fireEvent.mouseEnter(before);
    // a tap's mouse events come together: the button pressed is already the one that stays
    const after = screen.getByRole('button');
    expect(after.isConnected).toBe(true);
    fireEvent.click(after);
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button')).toBe(after);
  });
});
