import { Tooltip, type TooltipProps } from '@mantine/core';
import { cloneElement, type MouseEvent, type ReactElement, useState } from 'react';
import { flushSync } from 'react-dom';

type HoverTarget = ReactElement<{ onMouseEnter?: (event: MouseEvent<HTMLElement>) => void }>;

/**
 * A tooltip shown on hover only, whose Mantine Tooltip mounts on the pointer's first entry rather
 * than with the page. A closed Tooltip still runs floating-ui's hooks at every render: a list's ten
 * rows, with their action buttons, spent about 45 ms of the first render there (a CPU profile of
 * the mail view, docs/WEB.md "A view's first rows"). On that entry the button is mounted again
 * under the pointer inside the Tooltip, which opens at once and closes when the pointer leaves.
 * The swap is done inside the entry's own event (`flushSync`): the press that follows (at once,
 * on a tap, whose mouse events all come at its end) lands on the new button, never half on each.
 */
export function HoverTooltip({
  children,
  ...props
}: Omit<TooltipProps, 'children' | 'events' | 'defaultOpened'> & { children: HoverTarget }) {
  const [armed, setArmed] = useState(false);
  if (armed) {
    return (
      <Tooltip {...props} defaultOpened>
        {children}
      </Tooltip>
    );
  }
  const own = children.props.onMouseEnter;
  return cloneElement(children, {
    onMouseEnter: (event: MouseEvent<HTMLElement>) => {
      own?.(event);
      flushSync(() => setArmed(true));
    },
  });
}
