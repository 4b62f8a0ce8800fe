import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { javascript } from '@codemirror/lang-javascript'
import { python } from '@codemirror/lang-python'
import {
  bracketMatching,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from '@codemirror/language'
import {
  Compartment,
  EditorState,
  type Extension,
  RangeSetBuilder,
  StateEffect,
  StateField,
} from '@codemirror/state'
import {
  Decoration,
  type DecorationSet,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view'
import type { CodeLanguage } from '#features/exercises/code-run.ts'
import { highlightStyle, pageTheme } from './editor-theme.client.ts'

type CodeEditorViewOptions = {
  parent: HTMLElement
  doc: string
  language: CodeLanguage
  /** ids of the visible label and of hints/errors, for screen readers. */
  labelledBy: string
  describedBy?: string
  readOnly?: boolean
  /** Visible lines before the editor scrolls (its height). */
  rows: number
  onChange(doc: string): void
  /** Ctrl+Enter / ⌘+Enter (「実行」 in the run panel). */
  onRunShortcut?: () => void
}

const LANGUAGES: Record<CodeLanguage, () => Extension> = {
  javascript: () => [javascript(), indentUnit.of('  ')],
  python: () => [python(), indentUnit.of('    ')],
}

/** Marks the line an error points at (1-based), or none. */
const setErrorLine = StateEffect.define<number | undefined>()
const errorLineMark = Decoration.line({ class: 'cm-error-line' })
const errorLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    let next = marks.map(transaction.changes)
    for (const effect of transaction.effects) {
      if (!effect.is(setErrorLine)) continue
      const builder = new RangeSetBuilder<Decoration>()
      const line = effect.value
      if (line !== undefined && line >= 1 && line <= transaction.state.doc.lines) {
        const from = transaction.state.doc.line(line).from
        builder.add(from, from, errorLineMark)
      }
      next = builder.finish()
    }
    // Editing the program makes the old error's line meaningless.
    return transaction.docChanged ? Decoration.none : next
  },
  provide: (field) => EditorView.decorations.from(field),
})

const codeTheme = EditorView.theme({
  '.cm-gutters': {
    backgroundColor: 'transparent',
    border: 'none',
    color: 'light-dark(#475569, #94a3b8)',
  },
  '.cm-activeLine': { backgroundColor: 'light-dark(#f1f5f9, #1e293b)' },
  '.cm-error-line': { backgroundColor: 'light-dark(#fee2e2, #450a0a)' },
})

/**
 * CodeMirror 6 for a program, on the Markdown editor's theme (editor-theme.client.ts): line
 * numbers, JavaScript or Python syntax colours and indentation, bracket matching, history. Tab
 * indents, as programmers expect; Escape then Tab leaves the editor (CodeMirror's own rule, so
 * the keyboard is never trapped — the field's hint says so).
 */
export function createCodeEditorView(options: CodeEditorViewOptions): {
  view: EditorView
  setLanguage(language: CodeLanguage): void
} {
  const aria: Record<string, string> = {
    'aria-labelledby': options.labelledBy,
    'aria-multiline': 'true',
  }
  if (options.describedBy) aria['aria-describedby'] = options.describedBy
  const language = new Compartment()
  const runKeys = options.onRunShortcut
    ? [
        {
          key: 'Mod-Enter',
          run: () => {
            options.onRunShortcut?.()
            return true
          },
        },
      ]
    : []
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightSpecialChars(),
        highlightActiveLine(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(highlightStyle, { fallback: true }),
        keymap.of([...runKeys, indentWithTab, ...defaultKeymap, ...historyKeymap]),
        language.of(LANGUAGES[options.language]()),
        EditorState.tabSize.of(4),
        EditorState.readOnly.of(options.readOnly ?? false),
        EditorView.contentAttributes.of({
          ...aria,
          spellcheck: 'false',
          autocapitalize: 'off',
          autocorrect: 'off',
          ...(options.readOnly && { 'aria-readonly': 'true' }),
        }),
        errorLineField,
        pageTheme,
        codeTheme,
        EditorView.theme({
          '.cm-scroller': { minHeight: `${options.rows * 1.7}em`, maxHeight: '32rem' },
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString())
        }),
      ],
    }),
  })
  return {
    view,
    setLanguage: (next) => view.dispatch({ effects: language.reconfigure(LANGUAGES[next]()) }),
  }
}

/** Highlights the line an error points at (or clears it with undefined). */
export function markErrorLine(view: EditorView, line: number | undefined): void {
  view.dispatch({ effects: setErrorLine.of(line) })
}

/** Makes the editor show `doc` when it changed from outside (a reset to the starter code). */
export function replaceCodeDocument(view: EditorView, doc: string): void {
  if (view.composing || view.state.doc.toString() === doc) return
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc } })
}
