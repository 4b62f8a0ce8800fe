import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { totpCode, totpStep } from '#server/identity/totp.ts'
import { CLIENT_ID, openPool, type Pool } from '#server/identity/user-pool/test-pool.ts'

let pool: Pool
beforeAll(async () => {
  pool = await openPool('optional')
})
afterAll(async () => {
  await pool?.close()
})

const start = (USERNAME: string, extra: Record<string, string> = {}) =>
  pool.call('InitiateAuth', {
    AuthFlow: 'CUSTOM_AUTH',
    ClientId: CLIENT_ID,
    AuthParameters: { USERNAME, ...extra },
  })

const otherThan = (code: string) => (code === '000000' ? '111111' : '000000')

describe('CUSTOM_AUTH: sign-in by an emailed code', () => {
  it('mails a code and signs in with it, by username or verified email', async () => {
    const { username, email } = await pool.register()
    const challenge = await start(email.toUpperCase())
    expect(challenge.body).toMatchObject({
      ChallengeName: 'CUSTOM_CHALLENGE',
      ChallengeParameters: { USERNAME: username, email: 'm***@e***' },
    })
    expect(pool.mail.at(-1)?.subject).toContain('ログイン用コード')
    const first = pool.latestCode(email)
    const done = await pool.respond('CUSTOM_CHALLENGE', challenge.body.Session, {
      USERNAME: username,
      ANSWER: first,
    })
    expect(done.body.AuthenticationResult.AccessToken).toBeTruthy()
    // The code is spent: the next sign-in wants its own (odds of a repeat: one in a million).
    pool.clock.now += 1000
    const again = await start(username)
    expect(pool.latestCode(email)).not.toBe(first)
    const replayed = await pool.respond('CUSTOM_CHALLENGE', again.body.Session, { ANSWER: first })
    expect(replayed.body.ChallengeName).toBe('CUSTOM_CHALLENGE')
  })

  it('asks again after a wrong answer, and fails the sign-in at the third', async () => {
    const { username, email } = await pool.register()
    let step = await start(username)
    const code = pool.latestCode(email)
    for (let i = 0; i < 2; i += 1) {
      step = await pool.respond('CUSTOM_CHALLENGE', step.body.Session, { ANSWER: otherThan(code) })
      expect(step.body.ChallengeName).toBe('CUSTOM_CHALLENGE')
      expect(step.body.ChallengeParameters.USERNAME).toBe(username)
    }
    const last = await pool.respond('CUSTOM_CHALLENGE', step.body.Session, {
      ANSWER: otherThan(code),
    })
    expect(last.body).toMatchObject({
      __type: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    })
    // A Session answered once cannot be answered again.
    const reused = await pool.respond('CUSTOM_CHALLENGE', step.body.Session, { ANSWER: code })
    expect(reused.body.__type).toBe('NotAuthorizedException')
  })

  it('answers an unknown or unconfirmed name the same way, without mailing anything', async () => {
    const sent = pool.mail.length
    const unknown = await start('nobody-here')
    expect(unknown.body.ChallengeName).toBe('CUSTOM_CHALLENGE')
    expect(pool.mail.length).toBe(sent)
    let step = unknown
    for (let i = 0; i < 2; i += 1) {
      step = await pool.respond('CUSTOM_CHALLENGE', step.body.Session, { ANSWER: '123456' })
      expect(step.body.ChallengeName).toBe('CUSTOM_CHALLENGE')
    }
    const last = await pool.respond('CUSTOM_CHALLENGE', step.body.Session, { ANSWER: '123456' })
    expect(last.body.__type).toBe('NotAuthorizedException')
  })

  it('rate limits the codes it sends, and refuses missing answers and SRP', async () => {
    const { username } = await pool.register()
    // register() sent one code this hour; five is the limit.
    for (let i = 0; i < 4; i += 1) expect((await start(username)).status).toBe(200)
    expect((await start(username)).body.__type).toBe('LimitExceededException')
    expect((await start(username, { SRP_A: 'ab' })).body.__type).toBe('InvalidParameterException')
    const missing = await pool.call('InitiateAuth', {
      AuthFlow: 'CUSTOM_AUTH',
      ClientId: CLIENT_ID,
    })
    expect(missing.body.__type).toBe('InvalidParameterException')
    pool.clock.now += 3600 * 1000
    const challenge = await start(username)
    const noAnswer = await pool.respond('CUSTOM_CHALLENGE', challenge.body.Session, {})
    expect(noAnswer.body.__type).toBe('InvalidParameterException')
  })

  it('still asks the MFA of an account that has it', async () => {
    const { username, email } = await pool.register()
    const { secret } = await pool.withTotp(username)
    const challenge = await start(username)
    const mfa = await pool.respond('CUSTOM_CHALLENGE', challenge.body.Session, {
      ANSWER: pool.latestCode(email),
    })
    expect(mfa.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
    const done = await pool.respond('SOFTWARE_TOKEN_MFA', mfa.body.Session, {
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, totpStep(pool.clock.now)),
    })
    expect(done.body.AuthenticationResult).toBeTruthy()
  })
})
