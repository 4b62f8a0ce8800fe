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
