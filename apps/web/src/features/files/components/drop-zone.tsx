import { Box, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type DragEvent, type ReactNode, useEffect, useRef, useState } from 'react';

/** Whether what is dragged is files from the computer (not a text or a link of the page). */
function carriesFiles(event: DragEvent | globalThis.DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * While the zone is there, files dropped beside it are ignored: the browser would otherwise open
 * the file in place of the panel.
 */
function useNoDropElsewhere(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const ignore = (event: globalThis.DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    window.addEventListener('dragover', ignore);
    window.addEventListener('drop', ignore);
    return () => {
      window.removeEventListener('dragover', ignore);
      window.removeEventListener('drop', ignore);
    };
  }, [enabled]);
}

/**
 * An area files can be dropped on: while files are dragged over it, a dashed frame covers it and
 * says where they will go. Off (`enabled` false) it is only its children.
 */
export function DropZone({
  enabled,
  label,
  onFiles,
  children,
}: {
  enabled: boolean;
  label: string;
  onFiles: (files: File[]) => void;
  children: ReactNode;
}) {
  const [over, setOver] = useState(false);
  // dragenter and dragleave fire for every child crossed: count them to know when it really left
  const depth = useRef(0);
  useNoDropElsewhere(enabled);
  if (!enabled) return <>{children}</>;
  const leave = () => {
    depth.current = 0;
    setOver(false);
  };
  return (
    <Box
      pos="relative"
      data-testid="files-drop-zone"
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current++;
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        leave();
        onFiles(Array.from(event.dataTransfer.files));
      }}
    >
      {children}
      {over ? (
        <Box
          data-testid="files-drop-overlay"
          pos="absolute"
          inset={0}
          style={{
            zIndex: 2,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 8,
            border: '2px dashed var(--mantine-primary-color-filled)',
            borderRadius: 'var(--mantine-radius-sm)',
            background: 'color-mix(in srgb, var(--mantine-color-body) 88%, transparent)',
            pointerEvents: 'none',
          }}
        >
          <IconUpload size={32} aria-hidden />
          <Text fw={600} ta="center" px="md">
            {label}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
