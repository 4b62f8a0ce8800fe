import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { totpCode, totpStep } from '#server/identity/totp.ts'
import { SOURCE_WINDOW_MS } from '#server/identity/user-pool/lockout.ts'
import { openPool, type Pool } from '#server/identity/user-pool/test-pool.ts'

describe('TOTP MFA (pool MFA optional)', () => {
  let pool: Pool
  beforeAll(async () => {
    pool = await openPool('optional')
  })
  afterAll(async () => {
    await pool?.close()
  })

  it('sets up an authenticator app, reports it in GetUser, and asks for its code at sign-in', async () => {
    const { username } = await pool.register()
    const { secret, AccessToken } = await pool.withTotp(username)
    const user = await pool.call('GetUser', { AccessToken })
    expect(user.body.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA'])
    expect(user.body.PreferredMfaSetting).toBe('SOFTWARE_TOKEN_MFA')

    const challenge = await pool.initiate(username)
    expect(challenge.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
    expect(challenge.body.AuthenticationResult).toBeUndefined()
    const step = totpStep(pool.clock.now)

    // A wrong code: CodeMismatchException, and the same Session may try again.
    const wrong = await pool.respond('SOFTWARE_TOKEN_MFA', challenge.body.Session, {
      USERNAME: username,
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, step + 5),
    })
    expect(wrong.body.__type).toBe('CodeMismatchException')
    const right = await pool.respond('SOFTWARE_TOKEN_MFA', challenge.body.Session, {
      USERNAME: username,
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, step),
    })
    expect(right.status).toBe(200)
    expect(right.body.AuthenticationResult.AccessToken).toBeTruthy()

    // The same code again, in a new sign-in: refused (single use).
    const again = await pool.initiate(username)
    const replayed = await pool.respond('SOFTWARE_TOKEN_MFA', again.body.Session, {
      USERNAME: username,
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, step),
    })
    // Cognito's own answer for a spent code, so the screen can say to wait for the next one.
    expect(replayed.body.__type).toBe('ExpiredCodeException')
    expect(replayed.body.message).toMatch(/already been used/)
    // The Session is not spent by a session-level replay either: a fresh code works.
    const fresh = await pool.respond('SOFTWARE_TOKEN_MFA', again.body.Session, {
      USERNAME: username,
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, step + 1),
    })
    expect(fresh.body.AuthenticationResult).toBeTruthy()
  })

  it('ends the Session after three wrong codes', async () => {
    const { username } = await pool.register()
    const { secret } = await pool.withTotp(username)
    const challenge = await pool.initiate(username)
    for (let i = 0; i < 3; i += 1) {
      const wrong = await pool.respond('SOFTWARE_TOKEN_MFA', challenge.body.Session, {
        SOFTWARE_TOKEN_MFA_CODE:
          '000000' === totpCode(secret, totpStep(pool.clock.now)) ? '111111' : '000000',
      })
      expect(wrong.body.__type).toBe('CodeMismatchException')
    }
    const late = await pool.respond('SOFTWARE_TOKEN_MFA', challenge.body.Session, {
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, totpStep(pool.clock.now)),
    })
    expect(late.body.__type).toBe('NotAuthorizedException')
  })

  it('counts wrong MFA codes toward the lockout, and a right password does not clear them', async () => {
    const { username } = await pool.register()
    const { secret } = await pool.withTotp(username)
    const wrongCode = () => {
      const right = totpCode(secret, totpStep(pool.clock.now))
      return right === '123456' ? '654321' : '123456'
    }
    for (let i = 0; i < 5; i += 1) {
      const challenge = await pool.initiate(username)
      expect(challenge.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
      const wrong = await pool.respond('SOFTWARE_TOKEN_MFA', challenge.body.Session, {
        SOFTWARE_TOKEN_MFA_CODE: wrongCode(),
      })
      expect(wrong.body.__type).toBe('CodeMismatchException')
    }
    const locked = await pool.initiate(username)
    expect(locked.body).toMatchObject({
      __type: 'NotAuthorizedException',
      message: 'Password attempts exceeded',
    })
    pool.clock.now += SOURCE_WINDOW_MS + 1000
    const challenge = await pool.initiate(username)
    const right = await pool.respond('SOFTWARE_TOKEN_MFA', challenge.body.Session, {
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, totpStep(pool.clock.now)),
    })
    expect(right.body.AuthenticationResult).toBeTruthy()
  })

  it('refuses to verify without an associated secret, to enable an unverified app, and a wrong setup code', async () => {
    const { username } = await pool.register()
    const signedIn = await pool.initiate(username)
    const AccessToken = signedIn.body.AuthenticationResult.AccessToken
    const early = await pool.call('VerifySoftwareToken', { AccessToken, UserCode: '123456' })
    expect(early.body.__type).toBe('SoftwareTokenMFANotFoundException')
    const unverified = await pool.call('SetUserMFAPreference', {
      AccessToken,
      SoftwareTokenMfaSettings: { Enabled: true },
    })
    expect(unverified.body.__type).toBe('InvalidParameterException')
    const associated = await pool.call('AssociateSoftwareToken', { AccessToken })
    const secret = associated.body.SecretCode as string
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    const right = totpCode(secret, totpStep(pool.clock.now))
    const mismatch = await pool.call('VerifySoftwareToken', {
      AccessToken,
      UserCode: right === '000000' ? '111111' : '000000',
    })
    expect(mismatch.body.__type).toBe('EnableSoftwareTokenMFAException')
    const malformed = await pool.call('VerifySoftwareToken', { AccessToken, UserCode: '12ab56' })
    expect(malformed.body.__type).toBe('InvalidParameterException')
    const both = await pool.call('AssociateSoftwareToken', {
      AccessToken,
      Session: 'x'.repeat(40),
    })
    expect(both.body.__type).toBe('InvalidParameterException')
    const badSession = await pool.call('AssociateSoftwareToken', { Session: 'x'.repeat(40) })
    expect(badSession.body.__type).toBe('NotAuthorizedException')
    // Verified but not enabled: sign-in asks no MFA yet.
    expect(
      (await pool.call('VerifySoftwareToken', { AccessToken, UserCode: right })).body.Status,
    ).toBe('SUCCESS')
    expect((await pool.initiate(username)).body.AuthenticationResult).toBeTruthy()
    const user = await pool.call('GetUser', { AccessToken })
    expect(user.body.UserMFASettingList).toBeUndefined()
  })

  it('turns MFA off again with SetUserMFAPreference', async () => {
    const { username } = await pool.register()
    const { AccessToken } = await pool.withTotp(username)
    const off = await pool.call('SetUserMFAPreference', {
      AccessToken,
      SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
    })
    expect(off.status).toBe(200)
    const user = await pool.call('GetUser', { AccessToken })
    expect(user.body.UserMFASettingList).toBeUndefined()
    expect(user.body.PreferredMfaSetting).toBeUndefined()
    expect((await pool.initiate(username)).body.AuthenticationResult).toBeTruthy()
  })
})

describe('SMS MFA by mailed code, and the choice between two MFA types', () => {
  let pool: Pool
  beforeAll(async () => {
    pool = await openPool('optional')
  })
  afterAll(async () => {
    await pool?.close()
  })

  it('mails a three-minute code for SMS_MFA (SetUserSettings, the legacy way)', async () => {
    const { username, email } = await pool.register()
    const signedIn = await pool.initiate(username)
    const AccessToken = signedIn.body.AuthenticationResult.AccessToken
    const set = await pool.call('SetUserSettings', {
      AccessToken,
      MFAOptions: [{ DeliveryMedium: 'SMS', AttributeName: 'phone_number' }],
    })
    expect(set.status).toBe(200)
    expect((await pool.call('GetUser', { AccessToken })).body).toMatchObject({
      UserMFASettingList: ['SMS_MFA'],
      MFAOptions: [{ DeliveryMedium: 'EMAIL', AttributeName: 'email' }],
    })

    const challenge = await pool.initiate(username)
    expect(challenge.body.ChallengeName).toBe('SMS_MFA')
    expect(challenge.body.ChallengeParameters).toMatchObject({
      CODE_DELIVERY_DELIVERY_MEDIUM: 'EMAIL',
      CODE_DELIVERY_DESTINATION: 'm***@e***',
    })
    const code = pool.latestCode(email)
    expect(pool.mail.at(-1)?.subject).toContain('ログイン')
    const wrong = await pool.respond('SMS_MFA', challenge.body.Session, {
      SMS_MFA_CODE: code === '000000' ? '111111' : '000000',
    })
    expect(wrong.body.__type).toBe('CodeMismatchException')
    const right = await pool.respond('SMS_MFA', challenge.body.Session, { SMS_MFA_CODE: code })
    expect(right.body.AuthenticationResult).toBeTruthy()

    // After three minutes the code is worthless.
    const late = await pool.initiate(username)
    pool.clock.now += 3 * 60 * 1000 + 1
    const expired = await pool.respond('SMS_MFA', late.body.Session, {
      SMS_MFA_CODE: pool.latestCode(email),
    })
    expect(expired.body.__type).toBe('NotAuthorizedException')
  })

  it('asks SELECT_MFA_TYPE when both are on and neither is preferred', async () => {
    const { username, email } = await pool.register()
    const { secret, AccessToken } = await pool.withTotp(username, { enable: false })
    const both = await pool.call('SetUserMFAPreference', {
      AccessToken,
      SMSMfaSettings: { Enabled: true, PreferredMfa: false },
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: false },
    })
    expect(both.status).toBe(200)
    const challenge = await pool.initiate(username)
    expect(challenge.body.ChallengeName).toBe('SELECT_MFA_TYPE')
    expect(challenge.body.ChallengeParameters.MFAS_CAN_CHOOSE).toBe(
      '["SMS_MFA","SOFTWARE_TOKEN_MFA"]',
    )
    const bad = await pool.respond('SELECT_MFA_TYPE', challenge.body.Session, {
      ANSWER: 'EMAIL_OTP',
    })
    expect(bad.body.__type).toBe('InvalidParameterException')
    const chosen = await pool.respond('SELECT_MFA_TYPE', challenge.body.Session, {
      ANSWER: 'SOFTWARE_TOKEN_MFA',
    })
    expect(chosen.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
    const done = await pool.respond('SOFTWARE_TOKEN_MFA', chosen.body.Session, {
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, totpStep(pool.clock.now)),
    })
    expect(done.body.AuthenticationResult).toBeTruthy()

    const again = await pool.initiate(username)
    const sms = await pool.respond('SELECT_MFA_TYPE', again.body.Session, { ANSWER: 'SMS_MFA' })
    expect(sms.body.ChallengeName).toBe('SMS_MFA')
    const viaSms = await pool.respond('SMS_MFA', sms.body.Session, {
      SMS_MFA_CODE: pool.latestCode(email),
    })
    expect(viaSms.body.AuthenticationResult).toBeTruthy()

    // Preferring one skips the choice.
    await pool.call('SetUserMFAPreference', {
      AccessToken,
      SMSMfaSettings: { Enabled: true, PreferredMfa: true },
    })
    expect((await pool.initiate(username)).body.ChallengeName).toBe('SMS_MFA')
  })
})

describe('MFA required by the pool (MFA_SETUP)', () => {
  let pool: Pool
  beforeAll(async () => {
    pool = await openPool('on')
  })
  afterAll(async () => {
    await pool?.close()
  })

  it('sets up an authenticator app during sign-in, then asks for its code', async () => {
    const { username } = await pool.register()
    const challenge = await pool.initiate(username)
    expect(challenge.body.ChallengeName).toBe('MFA_SETUP')
    expect(challenge.body.ChallengeParameters.MFAS_CAN_SETUP).toBe('["SOFTWARE_TOKEN_MFA"]')

    // Answering before setting up spends the session for nothing.
    const early = await pool.initiate(username)
    const skipped = await pool.respond('MFA_SETUP', early.body.Session, { USERNAME: username })
    expect(skipped.body.__type).toBe('InvalidParameterException')

    const associated = await pool.call('AssociateSoftwareToken', {
      Session: challenge.body.Session,
    })
    expect(associated.status).toBe(200)
    const secret = associated.body.SecretCode as string
    expect(associated.body.Session).toBeTruthy()
    // The old Session is spent.
    const reused = await pool.call('AssociateSoftwareToken', { Session: challenge.body.Session })
    expect(reused.body.__type).toBe('NotAuthorizedException')

    const right = totpCode(secret, totpStep(pool.clock.now))
    const wrong = await pool.call('VerifySoftwareToken', {
      Session: associated.body.Session,
      UserCode: right === '000000' ? '111111' : '000000',
    })
    expect(wrong.body.__type).toBe('EnableSoftwareTokenMFAException')
    const verified = await pool.call('VerifySoftwareToken', {
      Session: associated.body.Session,
      UserCode: right,
      FriendlyDeviceName: 'phone',
    })
    expect(verified.body.Status).toBe('SUCCESS')
    const done = await pool.respond('MFA_SETUP', verified.body.Session, { USERNAME: username })
    expect(done.body.AuthenticationResult).toBeTruthy()

    pool.clock.now += 30_000
    const next = await pool.initiate(username)
    expect(next.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
  })
})

describe('MFA off for the pool', () => {
  let pool: Pool
  beforeAll(async () => {
    pool = await openPool('off')
  })
  afterAll(async () => {
    await pool?.close()
  })

  it('neither sets up nor asks MFA', async () => {
    const { username } = await pool.register()
    const signedIn = await pool.initiate(username)
    const AccessToken = signedIn.body.AuthenticationResult.AccessToken
    const associated = await pool.call('AssociateSoftwareToken', { AccessToken })
    expect(associated.body.__type).toBe('InvalidParameterException')
    const sms = await pool.call('SetUserMFAPreference', {
      AccessToken,
      SMSMfaSettings: { Enabled: true },
    })
    expect(sms.body.__type).toBe('InvalidParameterException')
  })
})
