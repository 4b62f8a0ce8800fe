import { describe, expect, it } from 'vitest'
import { highlight, snippet } from './snippet.ts'

describe('highlight', () => {
  it('escapes everything and marks each hit, case-insensitively', () => {
    expect(highlight('<b>Python</b> と python', ['PYTHON'])).toBe(
      '&lt;b&gt;<mark>Python</mark>&lt;/b&gt; と <mark>python</mark>',
    )
  })

  it('merges overlapping hits of different terms', () => {
    expect(highlight('プログラミング', ['プログラ', 'グラミ'])).toBe('<mark>プログラミ</mark>ング')
  })

  it('escapes a query that looks like markup', () => {
    expect(highlight('a <mark> b', ['<mark>'])).toBe('a <mark>&lt;mark&gt;</mark> b')
  })
})

describe('snippet', () => {
  it('cuts around the first hit with ellipses', () => {
    const text = `${'あ'.repeat(100)}変数${'い'.repeat(200)}`
    const html = snippet(text, ['変数'], 10)
    expect(html).toBe(`…${'あ'.repeat(10)}<mark>変数</mark>${'い'.repeat(20)}…`)
  })

  it('starts at the beginning when the text has no hit', () => {
    expect(snippet('短い\n本文', ['ない'])).toBe('短い 本文')
  })
})
