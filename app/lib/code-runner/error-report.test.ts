import { describe, expect, it } from 'vitest'
import { javascriptError, pythonError } from './error-report.ts'

describe('javascriptError', () => {
  it('takes the line of the first frame in the learner’s file', () => {
    const error = new TypeError("Cannot read properties of null (reading 'x')")
    error.stack = [
      "TypeError: Cannot read properties of null (reading 'x')",
      '    at f (main.js:4:9)',
      '    at eval (main.js:7:1)',
      '    at http://127.0.0.1/assets/code-runner/javascript.worker-x.js:1:200',
    ].join('\n')
    expect(javascriptError(error)).toEqual({
      message: "TypeError: Cannot read properties of null (reading 'x')",
      line: 4,
    })
  })

  it('takes a syntax error’s line from the error event when it points at the learner’s file', () => {
    const error = new SyntaxError("Unexpected token ';'")
    error.stack = "SyntaxError: Unexpected token ';'"
    expect(javascriptError(error, { filename: 'main.js', lineno: 3 })).toEqual({
      message: "SyntaxError: Unexpected token ';'",
      line: 3,
    })
    expect(javascriptError(error, { filename: 'worker.js', lineno: 9 })).toEqual({
      message: "SyntaxError: Unexpected token ';'",
    })
  })

  it('describes a thrown value that is not an error', () => {
    expect(javascriptError('oops')).toEqual({ message: "Uncaught 'oops'" })
    expect(javascriptError(42)).toEqual({ message: 'Uncaught 42' })
  })
})

describe('pythonError', () => {
  it('keeps the learner’s frames and the error, and drops Pyodide’s', () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "/lib/python314.zip/_pyodide/_base.py", line 597, in eval_code',
      '    .run(globals, locals)',
      '     ^^^^^^^^^^^^^^^^^^^^',
      '  File "main.py", line 5, in <module>',
      '    greet()',
      '  File "main.py", line 2, in greet',
      '    print(nme)',
      '          ^^^',
      "NameError: name 'nme' is not defined",
      '',
    ].join('\n')
    expect(pythonError(traceback)).toEqual({
      message: [
        'Traceback (most recent call last):',
        '  File "main.py", line 5, in <module>',
        '    greet()',
        '  File "main.py", line 2, in greet',
        '    print(nme)',
        '          ^^^',
        "NameError: name 'nme' is not defined",
      ].join('\n'),
      line: 2,
    })
  })

  it('finds a syntax error’s line after Pyodide’s frames', () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "/lib/python314.zip/_pyodide/_base.py", line 591, in eval_code',
      '    self._compile()',
      '  File "main.py", line 3',
      '    x = (1,',
      '        ^',
      "SyntaxError: '(' was never closed",
    ].join('\n')
    const report = pythonError(traceback)
    expect(report.line).toBe(3)
    expect(report.message).not.toContain('_pyodide')
    expect(report.message).toContain("SyntaxError: '(' was never closed")
  })
})
