/**
 * What `console.log(a, b, …)` writes, as Node writes it for the values a beginner prints:
 * strings as they are, numbers, booleans, null/undefined, arrays `[ 1, 'a' ]`, plain objects
 * `{ a: 1 }`, Maps, Sets and errors, nested two levels deep. Self-contained on purpose (no
 * imports, no outer names): the server's QuickJS sandbox evaluates its source text inside the
 * engine (`formatConsoleArgs.toString()`), and a browser runner may call it directly, so a
 * program prints the same on both.
 */
export function formatConsoleArgs(args: readonly unknown[]): string {
  const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name))
  const show = (value: unknown, depth: number, seen: readonly object[]): string => {
    if (typeof value === 'string') return depth === 0 ? value : quote(value)
    if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value)
    if (typeof value === 'bigint') return `${value}n`
    if (typeof value === 'symbol') return value.toString()
    if (typeof value === 'function') {
      const name = (value as { name?: string }).name
      return name ? `[Function: ${name}]` : '[Function (anonymous)]'
    }
    if (value === null || typeof value !== 'object') return String(value)
    if (seen.includes(value)) return '[Circular *1]'
    // The message only: stack frames differ between engines.
    if (value instanceof Error) return depth === 0 ? `${value}` : `[${value}]`
    const inner = [...seen, value]
    const wrap = (open: string, parts: string[], close: string) =>
      parts.length === 0 ? `${open}${close}` : `${open} ${parts.join(', ')} ${close}`
    if (Array.isArray(value)) {
      if (depth > 2) return '[Array]'
      return wrap(
        '[',
        value.map((item) => show(item, depth + 1, inner)),
        ']',
      )
    }
    if (value instanceof Map) {
      if (depth > 2) return '[Map]'
      const parts = [...value].map(
        ([k, v]) => `${show(k, depth + 1, inner)} => ${show(v, depth + 1, inner)}`,
      )
      return wrap(`Map(${value.size}) {`, parts, '}')
    }
    if (value instanceof Set) {
      if (depth > 2) return '[Set]'
      const parts = [...value].map((item) => show(item, depth + 1, inner))
      return wrap(`Set(${value.size}) {`, parts, '}')
    }
    if (depth > 2) return '[Object]'
    const parts = Object.keys(value).map(
      (name) => `${key(name)}: ${show((value as Record<string, unknown>)[name], depth + 1, inner)}`,
    )
    return wrap('{', parts, '}')
  }
  return args.map((arg) => show(arg, 0, [])).join(' ')
}
