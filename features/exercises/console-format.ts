// How `console.log(a, b, …)` turns its arguments into one line of output, close to Node's
// util.inspect for what beginners print (strings, numbers, arrays, plain objects, Map, Set),
// on one line. The browser's JavaScript runner uses it; it is one self-contained function (no
// imports, no outside names), so that a sandbox without modules can take it as source text
// (`formatConsoleArguments.toString()`) and print exactly the same.

/** `console.log`'s line for these arguments (without the newline). */
export function formatConsoleArguments(args: readonly unknown[]): string {
  const MAX_DEPTH = 2
  const MAX_ITEMS = 100
  const quote = (text: string) =>
    `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`
  const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name))
  const inspect = (value: unknown, depth: number, seen: unknown[]): string => {
    if (typeof value === 'string') return depth === 0 ? value : quote(value)
    if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value)
    if (typeof value === 'bigint') return `${value}n`
    if (typeof value === 'symbol') return value.toString()
    if (value === undefined || value === null || typeof value === 'boolean') return String(value)
    if (typeof value === 'function') {
      const name = (value as { name?: string }).name
      const isClass = /^class[\s{]/.test(Function.prototype.toString.call(value))
      return isClass
        ? `[class ${name || '(anonymous)'}]`
        : `[Function: ${name || '(anonymous)'}]`.replace(': (anonymous)]', ' (anonymous)]')
    }
    if (value instanceof Error) {
      return depth === 0 && value.stack ? value.stack : `[${value.name}: ${value.message}]`
    }
    if (value instanceof Date)
      return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()
    if (value instanceof RegExp) return String(value)
    if (seen.includes(value)) return '[Circular *1]'
    const inner = [...seen, value]
    const list = (items: string[], open: string, close: string, more: number) => {
      const shown = more > 0 ? [...items, `... ${more} more item${more > 1 ? 's' : ''}`] : items
      return shown.length === 0 ? `${open}${close}` : `${open} ${shown.join(', ')} ${close}`
    }
    if (Array.isArray(value)) {
      if (depth > MAX_DEPTH) return '[Array]'
      const items: string[] = []
      for (let i = 0; i < Math.min(value.length, MAX_ITEMS); i++) {
        items.push(i in value ? inspect(value[i], depth + 1, inner) : '<1 empty item>')
      }
      return list(items, '[', ']', value.length - items.length)
    }
    if (value instanceof Map) {
      if (depth > MAX_DEPTH) return '[Map]'
      const items = [...value]
        .slice(0, MAX_ITEMS)
        .map(([k, v]) => `${inspect(k, depth + 1, inner)} => ${inspect(v, depth + 1, inner)}`)
      return `Map(${value.size}) ${list(items, '{', '}', value.size - items.length)}`
    }
    if (value instanceof Set) {
      if (depth > MAX_DEPTH) return '[Set]'
      const items = [...value].slice(0, MAX_ITEMS).map((v) => inspect(v, depth + 1, inner))
      return `Set(${value.size}) ${list(items, '{', '}', value.size - items.length)}`
    }
    const object = value as Record<string, unknown>
    const prototype = Object.getPrototypeOf(object) as { constructor?: { name?: string } } | null
    const className = prototype === null ? '[Object: null prototype]' : prototype.constructor?.name
    const prefix = className && className !== 'Object' ? `${className} ` : ''
    if (depth > MAX_DEPTH) return prefix ? `[${prefix.trim()}]` : '[Object]'
    const names = Object.keys(object)
    const items = names
      .slice(0, MAX_ITEMS)
      .map((name) => `${key(name)}: ${inspect(object[name], depth + 1, inner)}`)
    return `${prefix}${list(items, '{', '}', names.length - items.length)}`
  }
  const parts: string[] = []
  let rest = args
  const first = args[0]
  // printf-style placeholders, as Node's console.log reads them from a first string argument.
  if (typeof first === 'string' && first.includes('%') && args.length > 1) {
    let index = 1
    const formatted = first.replace(/%([sdifjoOc%])/g, (match, letter: string) => {
      if (letter === '%') return '%'
      if (index >= args.length) return match
      const argument = args[index++]
      switch (letter) {
        case 's':
          return typeof argument === 'string' ? argument : inspect(argument, 1, [])
        case 'd':
        case 'i': {
          const number = Number(argument)
          return String(letter === 'i' ? Math.trunc(number) : number)
        }
        case 'f':
          return String(Number(argument))
        case 'j':
          return JSON.stringify(argument) ?? 'undefined'
        case 'c':
          return ''
        default:
          return inspect(argument, 1, [])
      }
    })
    parts.push(formatted)
    rest = args.slice(index)
  } else if (args.length > 0) {
    parts.push(inspect(first, 0, []))
    rest = args.slice(1)
  }
  for (const argument of rest) parts.push(inspect(argument, 0, []))
  return parts.join(' ')
}

/**
 * The same function under the name the server's sandbox (i16-sandbox) imports: both branches
 * wrote this module at once; one formatter keeps the browser and the server printing alike.
 */
export const formatConsoleArgs = formatConsoleArguments
