// The learner's line and message from a runtime's error report, for both runners. Learner code
// runs under a file name of its own (LEARNER_FILE), so the frames that point into it are told
// apart from the runner's and Pyodide's.

export const LEARNER_FILE = { javascript: 'main.js', python: 'main.py' } as const

export type ErrorReport = { message: string; line?: number }

/**
 * A JavaScript error: `Name: message` and the line of the first stack frame in the learner's
 * file. A syntax error has no such frame; its line comes from the worker's error event
 * (`fallbackLine`, used when the event points into the learner's file).
 */
export function javascriptError(
  error: unknown,
  fallback?: { filename?: string; lineno?: number },
): ErrorReport {
  const file = LEARNER_FILE.javascript
  let message: string
  let line: number | undefined
  if (
    error instanceof Error ||
    (typeof error === 'object' && error !== null && 'message' in error)
  ) {
    const {
      name,
      message: text,
      stack,
    } = error as { name?: unknown; message?: unknown; stack?: unknown }
    message = `${typeof name === 'string' ? name : 'Error'}: ${String(text)}`
    if (typeof stack === 'string') line = learnerLine(stack, file)
  } else {
    message = `Uncaught ${typeof error === 'string' ? `'${error}'` : String(error)}`
  }
  if (line === undefined && fallback?.filename?.endsWith(file) && fallback.lineno) {
    line = fallback.lineno
  }
  return line === undefined ? { message } : { message, line }
}

function learnerLine(stack: string, file: string): number | undefined {
  const escaped = file.replace('.', '\\.')
  const match = new RegExp(`(?:^|[\\s(/])${escaped}:(\\d+)(?::\\d+)?`, 'm').exec(stack)
  return match ? Number(match[1]) : undefined
}

/**
 * A Python traceback as Pyodide gives it (its own frames first): the learner's part only —
 * 「Traceback (most recent call last):」, the frames in the learner's file with their source
 * lines, then the error itself (for a SyntaxError, the lines Python points with) — and the
 * line of the last frame in the learner's file.
 */
export function pythonError(traceback: string): ErrorReport {
  const file = LEARNER_FILE.python
  const lines = traceback.replace(/\s+$/, '').split('\n')
  const frame = /^ {2}File "([^"]*)", line (\d+)/
  const kept: string[] = []
  let line: number | undefined
  let index = 0
  let sawFrame = false
  if (lines[0]?.startsWith('Traceback')) {
    index = 1
    while (index < lines.length && frame.test(lines[index] ?? '')) {
      const match = frame.exec(lines[index] ?? '')
      const frameLines = [lines[index] ?? '']
      index += 1
      // A frame's source line and any ^^^ markers are indented more than the frame.
      while (index < lines.length && /^ {4}/.test(lines[index] ?? '')) {
        frameLines.push(lines[index] ?? '')
        index += 1
      }
      if (match?.[1] === file) {
        kept.push(...frameLines)
        line = Number(match[2])
        sawFrame = true
      }
    }
  }
  const rest = lines.slice(index)
  // A SyntaxError names the learner's file in its own block after the frames.
  for (const text of rest) {
    const match = frame.exec(text)
    if (match?.[1] === file) line = Number(match[2])
  }
  const header = sawFrame ? ['Traceback (most recent call last):'] : []
  const message = [...header, ...kept, ...rest].join('\n')
  return line === undefined ? { message } : { message, line }
}
