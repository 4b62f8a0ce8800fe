// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { findUnsafeMarkup, XSS_PAYLOADS } from '#tests/support/xss.ts'
import { renderMarkdown } from './render.ts'

function parsed(html: string): HTMLElement {
  const container = document.createElement('div')
  container.innerHTML = html
  return container
}

describe('renderMarkdown neutralises known XSS payloads', () => {
  it.each(XSS_PAYLOADS)('%s', (payload) => {
    const html = renderMarkdown(payload)
    expect(findUnsafeMarkup(parsed(html)), html).toEqual([])
    expect(html, 'no executable scheme survives in any attribute').not.toMatch(
      /(?:href|src|action)="\s*(?:javascript|vbscript|data):/i,
    )
  })

  it('keeps the harmless text of neutralised markup', () => {
    expect(renderMarkdown('<a href="javascript:alert(1)">リンク</a>')).toBe('<p><a>リンク</a></p>')
    expect(renderMarkdown('<p onclick="alert(1)" style="color:red">本文</p>')).toBe('<p>本文</p>')
  })

  it('the check itself finds unsafe markup (so an empty result means something)', () => {
    const unsafe = parsed(
      '<a href="javascript:alert(1)">a</a><img src=x onerror="alert(1)"><svg></svg><p style="color:red">p</p>',
    )
    expect(findUnsafeMarkup(unsafe)).toEqual([
      'a[href=javascript:alert(1)]',
      'img[onerror]',
      '<svg>',
      'p[style]',
    ])
  })
})
