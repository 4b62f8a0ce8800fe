import { defaultHighlightStyle, HighlightStyle } from '@codemirror/language'
import { EditorView } from '@codemirror/view'

// Colours come from the page (currentColor and Tailwind's palette in app.css), so the editor
// follows the site's dark mode without a second theme.
export const pageTheme = EditorView.theme({
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
export const highlightStyle = HighlightStyle.define(
  defaultHighlightStyle.specs.map((spec) =>
    typeof spec.color === 'string' && DARK_TWINS[spec.color]
      ? { ...spec, color: `light-dark(${spec.color}, ${DARK_TWINS[spec.color]})` }
      : spec,
  ),
)
