const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character)
}

/** Where the terms occur in `text` (case-insensitively), as [start, end) ranges, merged. */
function hitRanges(text: string, terms: readonly string[]): [number, number][] {
  const folded = text.toLowerCase()
  // Lower-casing that changes lengths would shift the offsets; then nothing is marked.
  if (folded.length !== text.length) return []
  const ranges: [number, number][] = []
  for (const term of terms) {
    const needle = term.toLowerCase()
    if (!needle) continue
    for (
      let at = folded.indexOf(needle);
      at >= 0;
      at = folded.indexOf(needle, at + needle.length)
    ) {
      ranges.push([at, at + needle.length])
    }
  }
  ranges.sort((a, b) => a[0] - b[0])
  const merged: [number, number][] = []
  for (const range of ranges) {
    const last = merged.at(-1)
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push([...range])
  }
  return merged
}

/** `text` as HTML: everything escaped, each occurrence of a term wrapped in <mark>. */
export function highlight(text: string, terms: readonly string[]): string {
  let html = ''
  let position = 0
  for (const [start, end] of hitRanges(text, terms)) {
    html += `${escapeHtml(text.slice(position, start))}<mark>${escapeHtml(text.slice(start, end))}</mark>`
    position = end
  }
  return html + escapeHtml(text.slice(position))
}

/**
 * A short excerpt of `text` around its first hit, as highlighted HTML; the beginning of the
 * text when no term occurs in it (the hit was in the title).
 */
export function snippet(text: string, terms: readonly string[], radius = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const first = hitRanges(flat, terms)[0]
  const start = first ? Math.max(0, first[0] - radius) : 0
  const end = Math.min(flat.length, (first ? first[1] : 0) + radius * 2)
  const prefix = start > 0 ? '…' : ''
  const suffix = end < flat.length ? '…' : ''
  return `${prefix}${highlight(flat.slice(start, end), terms)}${suffix}`
}
