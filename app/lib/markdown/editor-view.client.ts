import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { markdownKeymap, markdownLanguage } from '@codemirror/lang-markdown'
import { defaultHighlightStyle, HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { EditorState } from '@codemirror/state'
import { drawSelection, EditorView, highlightSpecialChars, keymap } from '@codemirror/view'
import { asOwnBlock } from './insert-text.ts'

type EditorViewOptions = {
  parent: HTMLElement
  doc: string
  /** ids of the visible label and of hints/errors, for screen readers. */
  labelledBy: string
  describedBy?: string
  onChange(doc: string): void
}

// Colours come from the page (currentColor and Tailwind's palette in app.css), so the editor
// follows the site's dark mode without a second theme.
const pageTheme = EditorView.theme({
  '&': { fontSize: '0.95rem' },
  '.cm-content': {
    fontFamily: 'var(--font-mono)',
    padding: '0.75rem 0',
    caretColor: 'currentColor',
  },
  '.cm-line': { padding: '0 0.75rem' },
  '&.cm-focused': { outline: 'none' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'currentColor' },
  '.cm-scroller': { minHeight: '16rem', lineHeight: '1.7' },
})

/**
 * CodeMirror's default colours, which are dark ones for a light page, with a light twin for the
 * site's dark mode (`light-dark()` follows the page's colour scheme): #219 on the dark page was
 * 1.5:1 (axe color-contrast); each twin is at least 7:1 on slate-950.
 */
const DARK_TWINS: Record<string, string> = {
  '#404740': '#cbd5e1',
  '#708': '#d8b4fe',
  '#219': '#a5b4fc',
  '#164': '#86efac',
  '#a11': '#fca5a5',
  '#e40': '#fdba74',
  '#00f': '#93c5fd',
  '#30a': '#c4b5fd',
  '#085': '#6ee7b7',
  '#167': '#67e8f9',
  '#256': '#7dd3fc',
  '#00c': '#93c5fd',
  '#940': '#fcd34d',
  '#f00': '#f87171',
}
const highlightStyle = HighlightStyle.define(
  defaultHighlightStyle.specs.map((spec) =>
    typeof spec.color === 'string' && DARK_TWINS[spec.color]
      ? { ...spec, color: `light-dark(${spec.color}, ${DARK_TWINS[spec.color]})` }
      : spec,
  ),
)

/**
 * CodeMirror 6 for Markdown, kept small (no autocompletion, search or lint): history, the
 * standard key bindings, Markdown syntax colours, lists continued on Enter, soft wrapping. CodeMirror handles IME composition itself; `onChange` reports
 * the whole document after each change, and the caller must not push that same text back.
 */
export function createMarkdownEditorView(options: EditorViewOptions): EditorView {
  const aria: Record<string, string> = {
    'aria-labelledby': options.labelledBy,
    'aria-multiline': 'true',
  }
  if (options.describedBy) aria['aria-describedby'] = options.describedBy
  return new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        history(),
        drawSelection(),
        highlightSpecialChars(),
        syntaxHighlighting(highlightStyle, { fallback: true }),
        // No Tab binding: Tab moves focus on, as in any form field.
        keymap.of([...markdownKeymap, ...defaultKeymap, ...historyKeymap]),
        // The GFM language alone: `markdown()` would also bundle the HTML, CSS and JavaScript
        // parsers (about 300 kB) for syntax colours inside HTML blocks.
        markdownLanguage,
        EditorView.lineWrapping,
        EditorView.contentAttributes.of(aria),
        pageTheme,
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString())
        }),
      ],
    }),
  })
}

/** Replaces the selection with `text` and puts the cursor after it, as typing would. */
export function insertIntoView(view: EditorView, text: string, block = false): void {
  const from = view.state.selection.main.from
  const inserted = block ? asOwnBlock(view.state.sliceDoc(0, from), text) : text
  view.dispatch(view.state.replaceSelection(inserted), { scrollIntoView: true })
  view.focus()
}

/** Makes the editor show `doc` when it changed from outside (a reset or a loaded draft). */
export function replaceViewDocument(view: EditorView, doc: string): void {
  if (view.composing || view.state.doc.toString() === doc) return
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc } })
}
