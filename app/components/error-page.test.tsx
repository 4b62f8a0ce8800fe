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
    expect(html).toMatch(/<a [^>]*href="\/"[^>]*>Back to the home page<\/a>/)
  })

  it('shows the message it is given for other statuses', () => {
    const html = renderToString(<ErrorPage status={500} message="Error" />)
    expect(html).toContain('>500<')
    expect(html).toContain('<h1 class="text-xl font-semibold">Error</h1>')
    expect(html).not.toContain(ERROR_TEXTS.notFound)

    const custom = renderToString(<ErrorPage status={403} message="Forbidden" />)
    expect(custom).toContain('>Forbidden</h1>')
  })

  it('falls back to "Error" when the message is empty', () => {
    const html = renderToString(<ErrorPage status={500} message="" />)
    expect(html).toContain('>Error</h1>')
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
