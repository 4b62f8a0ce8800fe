import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { markdownKeymap, markdownLanguage } from '@codemirror/lang-markdown'
import { syntaxHighlighting } from '@codemirror/language'
import { EditorState } from '@codemirror/state'
import { drawSelection, EditorView, highlightSpecialChars, keymap } from '@codemirror/view'
import { highlightStyle, pageTheme } from '#app/lib/editor-theme.client.ts'
import { asOwnBlock } from './insert-text.ts'

type EditorViewOptions = {
  parent: HTMLElement
  doc: string
  /** ids of the visible label and of hints/errors, for screen readers. */
  labelledBy: string
  describedBy?: string
  onChange(doc: string): void
}

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
