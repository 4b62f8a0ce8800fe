import {
  ChangePasswordCommand,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  DeleteUserAttributesCommand,
  DeleteUserCommand,
  ForgotPasswordCommand,
  GetUserAttributeVerificationCodeCommand,
  GetUserCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
  VerifyUserAttributeCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listOutbox } from '#server/mail/outbox.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import {
  CLIENT_ID,
  latestCode,
  newAccount,
  POOL_ID,
  registerUser,
  sdkClient,
  signIn,
  srpSignIn,
} from './support.ts'

let server: TestServer
let cognito: ReturnType<typeof sdkClient>

beforeAll(async () => {
  server = await startTestServer()
  cognito = sdkClient(server)
})
afterAll(async () => {
  cognito?.destroy()
  await server?.close()
})

const attributesOf = (email: string) => [{ Name: 'email', Value: email }]

function passwordAuth(name: string, password: string) {
  return new InitiateAuthCommand({
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: CLIENT_ID,
    AuthParameters: { USERNAME: name, PASSWORD: password },
  })
}

describe('sign-up', () => {
  it('registers an unconfirmed user and mails a six-digit code', async () => {
    const account = newAccount()
    const answer = await cognito.send(
      new SignUpCommand({
        ClientId: CLIENT_ID,
        Username: account.username,
        Password: account.password,
        UserAttributes: attributesOf(account.email),
      }),
    )
    expect(answer.UserConfirmed).toBe(false)
    expect(answer.UserSub).toMatch(/^[0-9a-f-]{36}$/)
    expect(answer.CodeDeliveryDetails).toEqual({
      Destination: `${account.username[0]}***@e***`,
      DeliveryMedium: 'EMAIL',
      AttributeName: 'email',
    })
    const [mail] = await listOutbox(server.database.db, { to: account.email })
    expect(mail?.subject).toContain('確認コード')
    expect(mail?.text).toMatch(/\b\d{6}\b/)
    // Only an SRP verifier is stored, never the password.
    const row = await server.database.db
      .selectFrom('identity_users')
      .selectAll()
      .where('username', '=', account.username)
      .executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain(account.password)
    expect(row.password_verifier).toMatch(/^[0-9a-f]+$/)
    const codes = await server.database.db.selectFrom('identity_codes').selectAll().execute()
    expect(JSON.stringify(codes)).not.toContain(await latestCode(server, account.email))
  })

  it.each([
    ['short', 'Aa1#', 'Password not long enough'],
    ['no uppercase', 'correct#horse9', 'uppercase'],
    ['no lowercase', 'CORRECT#HORSE9', 'lowercase'],
    ['no digit', 'Correct#Horse', 'numeric'],
    ['no symbol', 'CorrectHorse9', 'symbol'],
  ])('refuses a password with %s: InvalidPasswordException', async (_case, password, words) => {
    const account = newAccount()
    await expect(
      cognito.send(
        new SignUpCommand({
          ClientId: CLIENT_ID,
          Username: account.username,
          Password: password,
          UserAttributes: attributesOf(account.email),
        }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidPasswordException',
      message: expect.stringContaining(words),
    })
  })

  it('refuses usernames the site refuses, with its Japanese reason', async () => {
    for (const [username, reason] of [
      ['Hana', '半角の英小文字'],
      ['courses', 'このユーザー名は使えません'],
      ['techlab', 'このユーザー名はすでに使われています'],
    ] as const) {
      await expect(
        cognito.send(
          new SignUpCommand({
            ClientId: CLIENT_ID,
            Username: username,
            Password: 'Correct#Horse9',
            UserAttributes: attributesOf(`${username}@example.com`),
          }),
        ),
      ).rejects.toMatchObject({
        name: 'InvalidParameterException',
        message: expect.stringContaining(reason),
      })
    }
  })

  it('refuses a taken username; a taken email is told to its owner by mail, not at sign-up', async () => {
    const account = await registerUser(server)
    const again = (username: string, email: string) =>
      cognito.send(
        new SignUpCommand({
          ClientId: CLIENT_ID,
          Username: username,
          Password: account.password,
          UserAttributes: attributesOf(email),
        }),
      )
    await expect(again(account.username, 'other@example.com')).rejects.toMatchObject({
      name: 'UsernameExistsException',
    })
    // PreventUserExistenceErrors (on by default): whoever types someone's address learns
    // nothing from the answer; the address's owner gets a mail saying it is in use, with the
    // way back into the account, and no code (docs/decisions/026).
    const ownersCode = await latestCode(server, account.email)
    const copycat = newAccount()
    const signedUp = await again(copycat.username, account.email.toUpperCase())
    expect(signedUp.UserConfirmed).toBe(false)
    expect(signedUp.CodeDeliveryDetails?.Destination).toMatch(/^.\*\*\*@.\*\*\*$/)
    const [notice] = await listOutbox(server.database.db, { to: account.email, limit: 1 })
    expect(notice?.subject).toBe('【テックラボ】このメールアドレスはすでに登録されています')
    expect(notice?.text).toContain(`ユーザー名: ${account.username}`)
    expect(notice?.text).toContain(`/auth/signin?username=${account.username}`)
    expect(notice?.text).toContain(`/auth/forgotPassword?username=${account.username}`)
    expect(notice?.text).not.toMatch(/\b\d{6}\b/)
    // Nothing confirms the copy: it has no code of its own, and the owner's is not its.
    await expect(
      cognito.send(
        new ConfirmSignUpCommand({
          ClientId: CLIENT_ID,
          Username: copycat.username,
          ConfirmationCode: ownersCode,
        }),
      ),
    ).rejects.toMatchObject({ name: 'CodeMismatchException' })
  })

  it('requires an email address', async () => {
    const account = newAccount()
    await expect(
      cognito.send(
        new SignUpCommand({
          ClientId: CLIENT_ID,
          Username: account.username,
          Password: account.password,
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' })
  })

  it('confirms with the code; wrong, expired and too many tries are refused', async () => {
    const account = newAccount()
    await cognito.send(
      new SignUpCommand({
        ClientId: CLIENT_ID,
        Username: account.username,
        Password: account.password,
        UserAttributes: attributesOf(account.email),
      }),
    )
    const confirm = (code: string) =>
      cognito.send(
        new ConfirmSignUpCommand({
          ClientId: CLIENT_ID,
          Username: account.username,
          ConfirmationCode: code,
        }),
      )
    const code = await latestCode(server, account.email)
    const wrong = code === '000000' ? '000001' : '000000'
    await expect(confirm(wrong)).rejects.toMatchObject({ name: 'CodeMismatchException' })

    // An expired code.
    await server.database.db
      .updateTable('identity_codes')
      .set({ expires_at: Date.now() - 1 })
      .execute()
    await expect(confirm(code)).rejects.toMatchObject({ name: 'ExpiredCodeException' })

    // A new code; five wrong tries spend it.
    const resent = await cognito.send(
      new ResendConfirmationCodeCommand({ ClientId: CLIENT_ID, Username: account.username }),
    )
    expect(resent.CodeDeliveryDetails?.DeliveryMedium).toBe('EMAIL')
    const fresh = await latestCode(server, account.email)
    const bad = fresh === '000000' ? '000001' : '000000'
    for (let i = 0; i < 5; i++) {
      await expect(confirm(bad)).rejects.toMatchObject({ name: 'CodeMismatchException' })
    }
    await expect(confirm(fresh)).rejects.toMatchObject({ name: 'LimitExceededException' })

    await cognito.send(
      new ResendConfirmationCodeCommand({ ClientId: CLIENT_ID, Username: account.username }),
    )
    await confirm(await latestCode(server, account.email))
    // The profile exists once the account is confirmed.
    const profile = await server.database.db
      .selectFrom('users')
      .select('username')
      .where('username', '=', account.username)
      .executeTakeFirst()
    expect(profile?.username).toBe(account.username)
    await expect(confirm(await latestCode(server, account.email))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    })
  })

  it('limits how many codes are sent: LimitExceededException', async () => {
    const account = newAccount()
    await cognito.send(
      new SignUpCommand({
        ClientId: CLIENT_ID,
        Username: account.username,
        Password: account.password,
        UserAttributes: attributesOf(account.email),
      }),
    )
    const resend = () =>
      cognito.send(
        new ResendConfirmationCodeCommand({ ClientId: CLIENT_ID, Username: account.username }),
      )
    for (let i = 0; i < 4; i++) await resend()
    await expect(resend()).rejects.toMatchObject({
      name: 'LimitExceededException',
      message: 'Attempt limit exceeded, please try after some time.',
    })
  })
})

describe('sign-in', () => {
  it('signs in by username or by verified email, with the password flow too', async () => {
    const account = await registerUser(server)
    const byEmail = await srpSignIn(server, account.email.toUpperCase(), account.password)
    expect(byEmail.status).toBe(200)
    const plain = await cognito.send(passwordAuth(account.email, account.password))
    expect(plain.AuthenticationResult?.AccessToken).toBeTruthy()
    expect(plain.AuthenticationResult?.RefreshToken).toBeTruthy()
    expect(plain.AuthenticationResult?.TokenType).toBe('Bearer')
    expect(plain.AuthenticationResult?.ExpiresIn).toBe(3600)
  })

  it('says the same for a wrong password and an unknown user', async () => {
    const account = await registerUser(server)
    for (const [name, password] of [
      [account.username, 'Wrong#Horse9'],
      ['nobody_at_all', account.password],
      ['nobody@example.com', account.password],
    ] as const) {
      await expect(cognito.send(passwordAuth(name, password))).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Incorrect username or password.',
      })
      const srp = await srpSignIn(server, name, password)
      expect(srp.body).toEqual({
        __type: 'NotAuthorizedException',
        message: 'Incorrect username or password.',
      })
    }
  })

  it('refuses an unconfirmed user once the password is right: UserNotConfirmedException', async () => {
    const account = newAccount()
    await cognito.send(
      new SignUpCommand({
        ClientId: CLIENT_ID,
        Username: account.username,
        Password: account.password,
        UserAttributes: attributesOf(account.email),
      }),
    )
    await expect(
      cognito.send(passwordAuth(account.username, account.password)),
    ).rejects.toMatchObject({
      name: 'UserNotConfirmedException',
    })
    expect((await srpSignIn(server, account.username, account.password)).body.__type).toBe(
      'UserNotConfirmedException',
    )
    // The email is not an alias until it is verified.
    await expect(cognito.send(passwordAuth(account.email, account.password))).rejects.toMatchObject(
      {
        name: 'NotAuthorizedException',
      },
    )
  })

  it('locks the account for a while after five wrong passwords', async () => {
    const account = await registerUser(server)
    for (let i = 0; i < 4; i++) {
      await expect(
        cognito.send(passwordAuth(account.username, 'Wrong#Horse9')),
      ).rejects.toMatchObject({
        message: 'Incorrect username or password.',
      })
    }
    expect((await srpSignIn(server, account.username, 'Wrong#Horse9')).body.message).toBe(
      'Incorrect username or password.',
    )
    for (const password of ['Wrong#Horse9', account.password]) {
      await expect(cognito.send(passwordAuth(account.username, password))).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Password attempts exceeded',
      })
    }
    expect((await srpSignIn(server, account.username, account.password)).body.message).toBe(
      'Password attempts exceeded',
    )
    // Only from this address: see abuse-limits.test.ts; the window's end: lockout unit tests.
  })
})

describe('passwords', () => {
  it('resets a forgotten password with the mailed code', async () => {
    const account = await registerUser(server)
    const sent = await cognito.send(
      new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: account.email }),
    )
    expect(sent.CodeDeliveryDetails?.AttributeName).toBe('email')
    const code = await latestCode(server, account.email)
    const confirm = (password: string, confirmationCode = code) =>
      cognito.send(
        new ConfirmForgotPasswordCommand({
          ClientId: CLIENT_ID,
          Username: account.username,
          ConfirmationCode: confirmationCode,
          Password: password,
        }),
      )
    await expect(confirm('weak')).rejects.toMatchObject({ name: 'InvalidPasswordException' })
    await expect(
      confirm('New#Horse10', code === '999999' ? '999998' : '999999'),
    ).rejects.toMatchObject({
      name: 'CodeMismatchException',
    })
    await confirm('New#Horse10')
    await expect(confirm('Other#Horse11')).rejects.toMatchObject({ name: 'ExpiredCodeException' })
    await expect(
      cognito.send(passwordAuth(account.username, account.password)),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    })
    expect((await srpSignIn(server, account.username, 'New#Horse10')).status).toBe(200)
  })

  it('does not reveal whether an email has an account', async () => {
    const answer = await cognito.send(
      new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: 'nobody-here@example.com' }),
    )
    expect(answer.CodeDeliveryDetails?.DeliveryMedium).toBe('EMAIL')
  })

  it('changes the password of a signed-in user', async () => {
    const account = await registerUser(server)
    const { AccessToken } = await signIn(server, account.username, account.password)
    await expect(
      cognito.send(
        new ChangePasswordCommand({
          AccessToken,
          PreviousPassword: 'Wrong#Horse9',
          ProposedPassword: 'New#Horse10',
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
    await expect(
      cognito.send(
        new ChangePasswordCommand({
          AccessToken,
          PreviousPassword: account.password,
          ProposedPassword: 'weak',
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidPasswordException' })
    await cognito.send(
      new ChangePasswordCommand({
        AccessToken,
        PreviousPassword: account.password,
        ProposedPassword: 'New#Horse10',
      }),
    )
    expect((await srpSignIn(server, account.username, account.password)).status).toBe(400)
    expect((await srpSignIn(server, account.username, 'New#Horse10')).status).toBe(200)
  })
})

describe('attributes', () => {
  it('refuses custom attributes the pool does not declare, as Cognito does', async () => {
    const account = newAccount()
    await expect(
      cognito.send(
        new SignUpCommand({
          ClientId: CLIENT_ID,
          Username: account.username,
          Password: account.password,
          UserAttributes: [
            { Name: 'email', Value: account.email },
            { Name: 'custom:plan', Value: 'premium' },
          ],
        }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message:
        'Attributes did not conform to the schema: Type for attribute {custom:plan} could not be determined',
    })
    const member = await registerUser(server)
    const { AccessToken } = await signIn(server, member.username, member.password)
    await expect(
      cognito.send(
        new UpdateUserAttributesCommand({
          AccessToken,
          UserAttributes: [{ Name: 'custom:plan', Value: 'premium' }],
        }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'Invalid user attributes: custom:plan: Attribute does not exist in the schema.',
    })
    await expect(
      server.app.identity.adminCreateUser({
        UserPoolId: POOL_ID,
        Username: newAccount().username,
        UserAttributes: [
          { Name: 'email', Value: 'invited@example.com' },
          { Name: 'custom:plan', Value: 'premium' },
        ],
      }),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' })
    const stored = await cognito.send(new GetUserCommand({ AccessToken }))
    expect(stored.UserAttributes?.some((a) => a.Name?.startsWith('custom:'))).toBe(false)
  })

  it('reads, updates, verifies and deletes attributes', async () => {
    const account = await registerUser(server)
    const { AccessToken } = await signIn(server, account.username, account.password)
    const before = await cognito.send(new GetUserCommand({ AccessToken }))
    expect(before.Username).toBe(account.username)
    expect(before.UserAttributes).toEqual([
      { Name: 'sub', Value: account.sub },
      { Name: 'email', Value: account.email },
      { Name: 'email_verified', Value: 'true' },
    ])

    const newEmail = `new.${account.email}`
    const update = await cognito.send(
      new UpdateUserAttributesCommand({
        AccessToken,
        UserAttributes: [
          { Name: 'email', Value: newEmail },
          { Name: 'name', Value: '山田 花子' },
        ],
      }),
    )
    expect(update.CodeDeliveryDetailsList?.[0]?.AttributeName).toBe('email')
    const changed = await cognito.send(new GetUserCommand({ AccessToken }))
    expect(changed.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'email', Value: newEmail },
        { Name: 'email_verified', Value: 'false' },
        { Name: 'name', Value: '山田 花子' },
      ]),
    )
    await expect(
      cognito.send(
        new UpdateUserAttributesCommand({
          AccessToken,
          UserAttributes: [{ Name: 'email_verified', Value: 'true' }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' })

    // A second code replaces the first; only the newest counts.
    const first = await latestCode(server, newEmail)
    await cognito.send(
      new GetUserAttributeVerificationCodeCommand({ AccessToken, AttributeName: 'email' }),
    )
    const second = await latestCode(server, newEmail)
    if (first !== second) {
      await expect(
        cognito.send(
          new VerifyUserAttributeCommand({ AccessToken, AttributeName: 'email', Code: first }),
        ),
      ).rejects.toMatchObject({ name: 'CodeMismatchException' })
    }
    await cognito.send(
      new VerifyUserAttributeCommand({ AccessToken, AttributeName: 'email', Code: second }),
    )
    const verified = await cognito.send(new GetUserCommand({ AccessToken }))
    expect(verified.UserAttributes).toEqual(
      expect.arrayContaining([{ Name: 'email_verified', Value: 'true' }]),
    )
    // The new address is now a sign-in alias; the old one is not.
    expect((await srpSignIn(server, newEmail, account.password)).status).toBe(200)
    expect((await srpSignIn(server, account.email, account.password)).status).toBe(400)

    await cognito.send(
      new DeleteUserAttributesCommand({ AccessToken, UserAttributeNames: ['name'] }),
    )
    const after = await cognito.send(new GetUserCommand({ AccessToken }))
    expect(after.UserAttributes?.some((a) => a.Name === 'name')).toBe(false)
    await expect(
      cognito.send(new DeleteUserAttributesCommand({ AccessToken, UserAttributeNames: ['email'] })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' })
  })

  it('refuses to verify an email another account has verified: AliasExistsException', async () => {
    const owner = await registerUser(server)
    const other = await registerUser(server)
    const { AccessToken } = await signIn(server, other.username, other.password)
    await cognito.send(
      new UpdateUserAttributesCommand({
        AccessToken,
        UserAttributes: [{ Name: 'email', Value: owner.email }],
      }),
    )
    await expect(
      cognito.send(
        new VerifyUserAttributeCommand({
          AccessToken,
          AttributeName: 'email',
          Code: await latestCode(server, owner.email),
        }),
      ),
    ).rejects.toMatchObject({ name: 'AliasExistsException' })
  })
})

describe('deleting an account', () => {
  it('removes the account and its profile, and ends its tokens', async () => {
    const account = await registerUser(server)
    const { AccessToken } = await signIn(server, account.username, account.password)
    await cognito.send(new DeleteUserCommand({ AccessToken }))
    const profile = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', account.sub)
      .executeTakeFirst()
    expect(profile).toBeUndefined()
    await expect(cognito.send(new GetUserCommand({ AccessToken }))).rejects.toMatchObject({
      name: 'UserNotFoundException',
    })
    await expect(
      cognito.send(passwordAuth(account.username, account.password)),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    })
    // The name is free again.
    await registerUser(server, { ...account })
  })
})
