/**
 * Bounds on the structure of a Markdown text, checked before it is saved (and by the editor's
 * preview before it renders), without zod so the browser can run them. The renderer's work
 * and stack grow with nesting and with runs of emphasis marks, not only with length: a few
 * kilobytes of `>` or `<div>` overflow its stack and 90 kB of `*a**` take a minute. Every check
 * is one pass over the text (docs/decisions/022-rendering-budget.md).
 */

/** Quotes, lists and indentation, counted per line. */
export const MARKDOWN_MAX_NESTING = 32
/** Open HTML elements, counted over the whole text (the HTML parser nests across blocks). */
export const MARKDOWN_MAX_HTML_NESTING = 32
/**
 * Runs of `*` or `_`, and `[`s, in one block (lines between blank lines): each may open
 * emphasis or a link, and the parser matches every opener against the ones before it.
 */
export const MARKDOWN_MAX_EMPHASIS_MARKS = 500
export const MARKDOWN_MAX_BRACKETS = 500
/** Runs of `~` in one block: strikethrough is matched like emphasis, and as slowly. */
export const MARKDOWN_MAX_STRIKETHROUGH_MARKS = 500

export const MARKDOWN_NESTING_MESSAGE = `引用・リスト・字下げの入れ子は${MARKDOWN_MAX_NESTING}段までにしてください。`
export const MARKDOWN_HTML_NESTING_MESSAGE = `HTMLタグの入れ子は${MARKDOWN_MAX_HTML_NESTING}段までにしてください（閉じタグの書き忘れがないか確認してください）。`
export const MARKDOWN_EMPHASIS_MESSAGE = `強調の記号（* や _）は1つの段落に${MARKDOWN_MAX_EMPHASIS_MARKS}個までにしてください。`
export const MARKDOWN_BRACKETS_MESSAGE = `リンクの記号（[）は1つの段落に${MARKDOWN_MAX_BRACKETS}個までにしてください。`
export const MARKDOWN_STRIKETHROUGH_MESSAGE = `取り消し線の記号（~）は1つの段落に${MARKDOWN_MAX_STRIKETHROUGH_MARKS}個までにしてください。`

/** Elements that have no content, or whose end tag the HTML parser implies: they never nest. */
const NOT_NESTING = new Set(
  'area base br col embed hr img input link meta source track wbr p li dt dd tr td th thead tbody tfoot option optgroup rb rt rp'.split(
    ' ',
  ),
)

const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]{0,30})(?:[\s/][^<>]{0,2000})?>/g
const EMPHASIS_RUN = /[*_]+/g
const BRACKET = /\[/g
const STRIKETHROUGH_RUN = /~+/g

/** How deep a line's container prefix nests: quote marks, list markers, two columns of indent. */
function lineNesting(line: string): number {
  let depth = 0
  let columns = 0
  let at = 0
  while (at < line.length) {
    const character = line[at]
    if (character === ' ') columns += 1
    else if (character === '\t') columns += 4
    else if (character === '>') depth += 1
    else {
      const marker = /^(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/.exec(line.slice(at, at + 11))
      if (!marker) break
      depth += 1
      at += marker[0].length
      continue
    }
    at += 1
  }
  return depth + Math.floor(columns / 2)
}

/**
 * The first bound `source` breaks, as a Japanese message for the field, or undefined. Code in
 * fences is not Markdown and is not counted.
 */
export function markdownStructureError(source: string): string | undefined {
  let fence: string | undefined
  let htmlDepth = 0
  let emphasisMarks = 0
  let brackets = 0
  let strikethroughMarks = 0
  for (const line of source.split('\n')) {
    const marker = FENCE.exec(line)?.[1]
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
      continue
    }
    if (lineNesting(line) > MARKDOWN_MAX_NESTING) return MARKDOWN_NESTING_MESSAGE
    if (marker) {
      fence = marker
      continue
    }
    if (line.trim() === '') {
      emphasisMarks = 0
      brackets = 0
      strikethroughMarks = 0
    } else {
      emphasisMarks += line.match(EMPHASIS_RUN)?.length ?? 0
      if (emphasisMarks > MARKDOWN_MAX_EMPHASIS_MARKS) return MARKDOWN_EMPHASIS_MESSAGE
      brackets += line.match(BRACKET)?.length ?? 0
      if (brackets > MARKDOWN_MAX_BRACKETS) return MARKDOWN_BRACKETS_MESSAGE
      strikethroughMarks += line.match(STRIKETHROUGH_RUN)?.length ?? 0
      if (strikethroughMarks > MARKDOWN_MAX_STRIKETHROUGH_MARKS) {
        return MARKDOWN_STRIKETHROUGH_MESSAGE
      }
    }
    for (const [tag, closing, name] of line.matchAll(TAG)) {
      const element = (name ?? '').toLowerCase()
      if (NOT_NESTING.has(element) || tag.endsWith('/>')) continue
      htmlDepth = closing ? Math.max(0, htmlDepth - 1) : htmlDepth + 1
      if (htmlDepth > MARKDOWN_MAX_HTML_NESTING) return MARKDOWN_HTML_NESTING_MESSAGE
    }
  }
  return undefined
}
