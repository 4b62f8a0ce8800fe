import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * The decision records stay a map that can be trusted: every record says when it was taken and
 * whether it still holds, and the index lists each record once, by its own title.
 */
const folder = new URL('../docs/decisions/', import.meta.url)
const records = readdirSync(folder)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .sort()
const index = readFileSync(new URL('README.md', folder), 'utf8')

describe('decision records', () => {
  it('each has its number in the title, a Date and a Status', () => {
    const problems = records.flatMap((name) => {
      const text = readFileSync(new URL(name, folder), 'utf8')
      const found: string[] = []
      if (!text.startsWith(`# ${name.slice(0, 3)}: `))
        found.push(`${name}: title without its number`)
      if (!/^Date: \d{4}-\d{2}-\d{2}$/m.test(text)) found.push(`${name}: no Date`)
      if (!/^Status: (accepted|superseded|proposed|retired)/m.test(text))
        found.push(`${name}: no Status`)
      return found
    })
    expect(problems).toEqual([])
  })

  it('the index lists every record, and nothing else', () => {
    const listed = [...index.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((match) => match[1])
    expect(listed).toEqual(records)
  })

  it('numbers are not reused', () => {
    const numbers = records.map((name) => name.slice(0, 3))
    expect(new Set(numbers).size).toBe(numbers.length)
  })
})
