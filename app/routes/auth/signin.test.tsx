import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { SignInStep } from '#app/lib/auth/sign-in-steps.ts'
import SignIn from './signin.tsx'

/** The sign-in screen as the server renders it, for a given result of the last submission. */
function render(actionData?: unknown, googleSignIn = false): string {
  const identity = {
    region: 'ap-northeast-1',
    userPoolId: 'ap-northeast-1_TechLabPool',
    userPoolClientId: 'client',
    endpoints: 'embedded',
    googleSignIn,
    features: { totpMfa: false, rememberedDevices: false },
  }
  const Stub = createRoutesStub([
    {
      id: 'root',
      path: '/',
      loader: () => ({ identity, settings: { siteTitle: 'テスト' }, user: null }),
      children: [{ path: 'auth/signin', Component: SignIn as never, action: () => null }],
    },
  ])
  return renderToString(
    <Stub
      initialEntries={['/auth/signin']}
      hydrationData={{
        loaderData: { root: { identity, settings: { siteTitle: 'テスト' }, user: null } },
        ...(actionData !== undefined && { actionData: { '0-0': actionData } }),
      }}
    />,
  )
}

const step = (value: SignInStep) => ({ step: value, username: 'hana' })

describe('the sign-in screen', () => {
  it('asks for a username or email and a password, with no Google button unless enabled', () => {
    const html = render()
    expect(html).toContain('ユーザー名またはメールアドレス')
    expect(html).toMatch(/autoComplete="current-password"/i)
    expect(html).not.toContain('Google')
    expect(render(undefined, true)).toContain('Google でログイン')
  })

  it.each([
    [{ kind: 'code', method: 'TOTP' }, '認証アプリのコード', '6桁のコード'],
    [{ kind: 'code', method: 'SMS', destination: '+81***1234' }, 'SMS のコード', '+81***1234'],
    [{ kind: 'code', method: 'EMAIL', destination: 'h***@e***' }, 'メールのコード', 'h***@e***'],
    [{ kind: 'newPassword' }, '新しいパスワードの設定', '新しいパスワード（確認用）'],
    [{ kind: 'selectMfa', options: ['TOTP', 'SMS'] }, '確認の方法を選んでください', 'SMS'],
    [{ kind: 'selectMfaSetup', options: ['TOTP', 'EMAIL'] }, '二段階認証の設定', 'メール'],
    [{ kind: 'totpSetup', secret: 'ABCD', uri: 'otpauth://totp/x' }, '認証アプリの登録', 'ABCD'],
    [{ kind: 'emailSetup' }, 'メールによる二段階認証の設定', 'メールアドレス'],
    [{ kind: 'customChallenge' }, '追加の確認', 'コード'],
  ] as [SignInStep, string, string][])('has a screen for %j', (value, heading, text) => {
    const html = render(step(value))
    expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`))
    expect(html).toContain(text)
    expect(html).toContain('name="step"')
    expect(html).toContain('最初からログインし直す')
  })

  it('ties an error to its field', () => {
    const html = render({
      ...step({ kind: 'code', method: 'TOTP' }),
      errors: { code: 'コードが正しくありません。' },
    })
    const input = /<input[^>]*name="code"[^>]*>/.exec(html)?.[0] ?? ''
    expect(input).toContain('aria-invalid="true"')
    const describedBy = /aria-describedby="([^"]+)"/.exec(input)?.[1] ?? ''
    const errorId = describedBy.split(' ').find((id) => html.includes(`id="${id}" class="min-h-5`))
    expect(errorId).toBeDefined()
    expect(html).toMatch(new RegExp(`id="${errorId}"[^>]*>.*コードが正しくありません`))
  })
})
