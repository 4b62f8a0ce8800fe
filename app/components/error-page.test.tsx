import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ERROR_TEXTS, ErrorPage, ErrorPageGuard } from './error-page.tsx'

function Broken(): never {
  throw new Error('the error page itself failed')
}

describe('ErrorPage', () => {
  it('shows the not-found text and a way home for 404', () => {
    const html = renderToString(<ErrorPage status={404} message="ignored for 404" />)
    expect(html).toContain('This page could not be found')
    expect(html).toContain('Back to the home page')
    expect(html).toContain('>404<')
    expect(html).not.toContain('ignored for 404')
    expect(html).toMatch(/<a [^>]*href="\/"[^>]*>ホームに戻る.*Back to the home page.*<\/a>/)
    // Japanese first: the heading explains, the seed's line follows.
    expect(html.indexOf('ページが見つかりません')).toBeLessThan(html.indexOf(ERROR_TEXTS.notFound))
    expect(html).toContain('<h1 class="text-xl font-semibold">ページが見つかりません</h1>')
  })

  it('explains 403, 401, other client errors and server errors in Japanese', () => {
    expect(renderToString(<ErrorPage status={403} message="Forbidden" />)).toContain(
      'このページを見る権限がありません',
    )
    expect(renderToString(<ErrorPage status={401} message="" />)).toContain('ログインが必要です')
    expect(renderToString(<ErrorPage status={400} message="" />)).toContain(
      'リクエストを処理できませんでした',
    )
    expect(renderToString(<ErrorPage status={503} message="" />)).toContain('エラーが発生しました')
  })

  it('shows the message it is given for other statuses', () => {
    const html = renderToString(<ErrorPage status={500} message="Error" />)
    expect(html).toContain('>500<')
    expect(html).toContain('>Error</p>')
    expect(html).not.toContain(ERROR_TEXTS.notFound)

    const custom = renderToString(<ErrorPage status={403} message="Forbidden" />)
    expect(custom).toContain('>Forbidden</p>')
  })

  it('falls back to "Error" when the message is empty', () => {
    const html = renderToString(<ErrorPage status={500} message="" />)
    expect(html).toContain('>Error</p>')
  })
})

describe('ErrorPageGuard', () => {
  beforeEach(() => {
    // React reports the thrown error on the console while it falls back.
    vi.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('renders its children when they work', () => {
    const html = renderToString(
      <ErrorPageGuard>
        <ErrorPage status={404} message="" />
      </ErrorPageGuard>,
    )
    expect(html).toContain(ERROR_TEXTS.notFound)
    expect(html).not.toContain(ERROR_TEXTS.errorPageFailed)
  })

  it('renders the failure page with a link home when its child throws on the server', () => {
    const html = renderToString(
      <ErrorPageGuard>
        <Broken />
      </ErrorPageGuard>,
    )
    expect(html).toContain('An error occurred while showing the error page')
    expect(html).toMatch(/<a [^>]*href="\/"[^>]*>Back to the home page<\/a>/)
    // On the server the class boundary cannot catch: what rendered is the Suspense fallback,
    // marked as a boundary the client must render itself (`<!--$!-->`). (React's development
    // build adds the error's message in a <template> before the fallback; production does not.)
    expect(html).toMatch(/^<!--\$!-->(<template [^>]*><\/template>)?<main id="main"/)
    expect(html).toMatch(/<!--\/\$-->$/)
  })

  it('does not swallow the error without the guard', () => {
    expect(() => renderToString(<Broken />)).toThrow('the error page itself failed')
  })
})
