import { describe, expect, it } from 'vitest'
import { secretRedactor } from './redact.ts'

describe('secretRedactor', () => {
  const url = 'smtps://mailer%40techlab.test:p%40ss%3Aw%2Frd%E7%A7%98@smtp.example.com:465'
  const redact = secretRedactor(url)
  const password = 'p@ss:w/rd秘'

  it.each([
    ['the URL', `could not reach ${url}`],
    ['the password', `bad password ${password}!`],
    ['the percent-encoded password', 'bad password p%40ss%3Aw%2Frd%E7%A7%98'],
    ['AUTH LOGIN', `535 ${Buffer.from(password).toString('base64')}`],
    ['AUTH PLAIN', `535 ${Buffer.from(`\0mailer@techlab.test\0${password}`).toString('base64')}`],
  ])('removes %s', (_what, text) => {
    const clean = redact(text)
    expect(clean).toContain('***')
    expect(clean).not.toContain(password)
    expect(clean).not.toContain('p%40ss')
    expect(clean).not.toContain(Buffer.from(password).toString('base64'))
  })

  it('removes credentials from any other URL too', () => {
    expect(redact('see smtp://someone:hunter2@other.example.com/')).toBe(
      'see smtp://***@other.example.com/',
    )
  })

  it('leaves other text alone', () => {
    expect(redact('ESOCKET: connect ECONNREFUSED 127.0.0.1:465')).toBe(
      'ESOCKET: connect ECONNREFUSED 127.0.0.1:465',
    )
    expect(secretRedactor(undefined)('anything at all')).toBe('anything at all')
    expect(secretRedactor('smtp://localhost:25')('smtp://localhost:25 refused')).toBe('*** refused')
  })
})
