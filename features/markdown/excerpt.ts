/**
 * Markdown as plain text, for cards, descriptions and search snippets: the marks of headings,
 * emphasis, links, lists and quotes, images and HTML tags are dropped; code blocks are dropped
 * (`code: 'drop'`) or kept as their text (`'keep'`, for snippets, where a hit may be in code).
 * Every pattern stops at the next opening mark or after a bounded run, so the work is linear
 * in the length of the text whatever it holds.
 */
export function markdownText(markdown: string, { code }: { code: 'keep' | 'drop' }): string {
  let text = ''
  let prose = ''
  let fence: string | undefined
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence === undefined && marker) {
      text += `${withoutMarks(prose)} `
      prose = ''
      fence = marker
    } else if (
      fence !== undefined &&
      marker &&
      marker[0] === fence[0] &&
      marker.length >= fence.length
    ) {
      fence = undefined
    } else if (fence !== undefined) {
      if (code === 'keep') text += `${line}\n`
    } else {
      prose += `${line}\n`
    }
  }
  text += withoutMarks(prose)
  return text.replace(/\s+/g, ' ').trim()
}

/** Prose without its marks; inline code keeps its text as written (`<b>`, `__init__`). */
function withoutMarks(prose: string): string {
  const lines = prose.replace(/^[ \t]{0,3}(?:(?:#{1,6}|>|[-*+]|\d{1,9}[.)])[ \t]+)+/gm, '')
  let text = ''
  let code: string | undefined
  let inCode = ''
  // A code span closes at the next run of as many backticks; one never closed is text.
  for (const part of lines.split(/(`+)/)) {
    if (part.startsWith('`')) {
      if (code === undefined) code = part
      else if (part === code) {
        text += inCode
        code = undefined
        inCode = ''
      } else inCode += part
    } else if (code === undefined) text += inlineText(part)
    else inCode += part
  }
  return code === undefined ? text : text + inlineText(inCode)
}

function inlineText(markdown: string): string {
  return (
    markdown
      .replace(/!\[[^[\]\n]{0,1000}\]\([^()\s]{0,2000}\)/g, ' ')
      .replace(/\[([^[\]\n]{0,1000})\]\([^()\s]{0,2000}\)/g, '$1')
      .replace(/<\/?[a-zA-Z][^<>]{0,1000}>/g, ' ')
      // Underscores inside words (snake_case) are text, as in CommonMark; around them, marks.
      .replace(/[*~]+|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])/g, '')
  )
}

/** The opening of a Markdown text as plain text for cards: at most `length` characters. */
export function plainExcerpt(markdown: string, length = 120): string {
  const characters = [...markdownText(markdown, { code: 'drop' })]
  return characters.length > length
    ? `${characters.slice(0, length).join('')}…`
    : characters.join('')
}
