import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { languageFor } from '../lib/editor-language';

/** The frame of the editor, in the app's colours, fonts and focus ring. */
const frame = EditorView.theme({
  '&': {
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-sm)',
    fontSize: '13px',
    height: 'min(60vh, 560px)',
  },
  '&.cm-focused': { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: '-1px' },
  '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', overflow: 'auto' },
});

/**
 * A code editor with syntax highlighting by the file's extension (CodeMirror). It is its own
 * chunk, loaded when a file opens, and each language another, so no other page pays for it.
 * Tab leaves the editor as it leaves any field (no Tab-to-indent trap for keyboard users).
 */
export default function CodeEditor({
  name,
  label,
  initial,
  readOnly,
  onChange,
}: {
  /** The file's name: it picks the highlighting. */
  name: string;
  /** The accessible name of the text. */
  label: string;
  initial: string;
  readOnly: boolean;
  onChange: (content: string) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const dark = useComputedColorScheme('light') === 'dark';
  const darkNow = useRef(dark);
  darkNow.current = dark;
  const changed = useRef(onChange);
  changed.current = onChange;
  const view = useRef<EditorView | null>(null);
  const colours = useRef(new Compartment());

  // one editor per file: the text it starts with is the file's as read
  useEffect(() => {
    const language = new Compartment();
    const editor = new EditorView({
      parent: host.current ?? undefined,
      state: EditorState.create({
        doc: initial,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'files-editor-text' }),
          frame,
          colours.current.of(darkNow.current ? oneDark : []),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          language.of([]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    editor.focus();
    let live = true;
    void languageFor(name)?.().then((support) => {
      if (live) editor.dispatch({ effects: language.reconfigure(support) });
    });
    return () => {
      live = false;
      editor.destroy();
      view.current = null;
    };
  }, [name, label, initial, readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: colours.current.reconfigure(dark ? oneDark : []) });
  }, [dark]);

  return <div ref={host} data-testid="files-code-editor" />;
}
