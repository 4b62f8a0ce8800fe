/**
 * The lines a program reads from `stdin`, as JavaScript's `input()` returns them: without their
 * line endings, and no empty last line for a text that ends with a newline.
 */
export function stdinLines(stdin: string): string[] {
  if (stdin === '') return []
  const lines = stdin.replace(/\r\n?/g, '\n').split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines
}
