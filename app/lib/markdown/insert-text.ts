/** The textarea fallback's insert: `text` replaces the selection and the cursor lands after it. */
export function insertAtSelection(
  value: string,
  selectionStart: number,
  selectionEnd: number,
  text: string,
): { value: string; cursor: number } {
  const start = Math.max(0, Math.min(selectionStart, selectionEnd, value.length))
  const end = Math.min(value.length, Math.max(selectionStart, selectionEnd))
  return { value: value.slice(0, start) + text + value.slice(end), cursor: start + text.length }
}

/**
 * `text` as a block of its own when inserted after `before` (the text up to the cursor): an
 * image typed onto the line of a closing code fence, say, would break the fence.
 */
export function asOwnBlock(before: string, text: string): string {
  if (before === '' || before.endsWith('\n\n')) return `${text}\n`
  return `${before.endsWith('\n') ? '\n' : '\n\n'}${text}\n`
}

/** Markdown of an uploaded image; brackets in the alt text would end it early. */
export function imageMarkdown(name: string, url: string): string {
  return `![${name.replace(/[[\]\\]/g, '')}](${url})`
}

/**
 * The alt text of the next image uploaded into `text`: what it shows (the item's title) and
 * its number among the text's images, e.g. 「家計簿アプリ の画像 2」.
 */
export function imageAlt(subject: string | undefined, text: string): string {
  const number = (text.match(/!\[/g)?.length ?? 0) + 1
  const about = subject?.trim()
  return about ? `${about} の画像 ${number}` : `画像 ${number}`
}
