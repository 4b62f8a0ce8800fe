/**
 * A message's plain text cut into text and links, for the browser to render as text nodes and
 * `<a>` elements (never as HTML): only http(s) addresses become links, and what ends a sentence
 * (。、）」 or a closing bracket with no opening one in the address) is left outside it.
 */
export type MessagePart =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }

const URL_PATTERN = /https?:\/\/[^\s<>"'`、。「」『』（）【】]+/g
const TRAILING = /[.,;:!?)\]}'"]+$/

export function linkify(text: string): MessagePart[] {
  const parts: MessagePart[] = []
  let last = 0
  for (const match of text.matchAll(URL_PATTERN)) {
    let candidate = match[0]
    // A closing bracket the address opened stays (Wikipedia's "(…)"); others end the sentence.
    while (TRAILING.test(candidate)) {
      const end = candidate.at(-1) ?? ''
      if (end === ')' && countOf(candidate, '(') >= countOf(candidate, ')')) break
      candidate = candidate.slice(0, -1)
    }
    const href = safeHref(candidate)
    if (!href) continue
    const start = match.index
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) })
    parts.push({ kind: 'link', text: candidate, href })
    last = start + candidate.length
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) })
  return parts
}

function countOf(text: string, character: string): number {
  return text.split(character).length - 1
}

/** The address as a link's href when it parses as http(s) with a host; undefined otherwise. */
function safeHref(candidate: string): string | undefined {
  try {
    const url = new URL(candidate)
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
      return undefined
    }
    return url.href
  } catch {
    return undefined
  }
}
