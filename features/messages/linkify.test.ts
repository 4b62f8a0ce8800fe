import { describe, expect, it } from 'vitest'
import { linkify } from './linkify.ts'

describe('linkify', () => {
  it('keeps plain text as one text part, markup included', () => {
    expect(linkify('<b>こんにちは</b>\n改行')).toEqual([
      { kind: 'text', text: '<b>こんにちは</b>\n改行' },
    ])
  })

  it('links http(s) addresses and leaves the sentence around them as text', () => {
    expect(linkify('見て: https://example.com/a?b=1。ありがとう')).toEqual([
      { kind: 'text', text: '見て: ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: '。ありがとう' },
    ])
    expect(linkify('(see https://example.com/x).')).toEqual([
      { kind: 'text', text: '(see ' },
      { kind: 'link', text: 'https://example.com/x', href: 'https://example.com/x' },
      { kind: 'text', text: ').' },
    ])
    expect(linkify('https://ja.wikipedia.org/wiki/A_(B)')[0]).toMatchObject({
      kind: 'link',
      text: 'https://ja.wikipedia.org/wiki/A_(B)',
    })
  })

  it('never links other schemes', () => {
    for (const text of ['javascript:alert(1)', 'data:text/html,<script>', 'ftp://example.com']) {
      expect(linkify(text).every((part) => part.kind === 'text')).toBe(true)
    }
    expect(linkify('http://"onmouseover=alert(1)').some((part) => part.kind === 'link')).toBe(false)
  })
})
