/**
 * The opening of a Markdown text as plain text for cards: code blocks, images, HTML tags and
 * the marks of headings, emphasis, links and lists are dropped; at most `length` characters.
 */
export function plainExcerpt(markdown: string, length = 120): string {
  const text = markdown
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  const characters = [...text]
  return characters.length > length ? `${characters.slice(0, length).join('')}…` : text
}
