import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { Link, redirect, useFetcher } from 'react-router'
import {
  FormMessage,
  PasswordField,
  SubmitButton,
  TextField,
  useFocusOnErrors,
} from '#app/components/forms.tsx'
import { AvatarSettings } from '#app/components/settings/avatar-settings.tsx'
import { MfaSettings } from '#app/components/settings/mfa-settings.tsx'
import { ProfileSettings } from '#app/components/settings/profile-settings.tsx'
import { RememberedDevices } from '#app/components/settings/remembered-devices.tsx'
import {
  errorResult,
  type FormResult,
  fieldErrors,
  formString,
  query,
  sessionCookieCleared,
} from '#app/lib/auth/flow.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { newPasswordError } from '#app/lib/auth/validation.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { actorOf } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { removeAvatar, setAvatar } from '#features/users/avatars.server.ts'
import { TIME_ZONES } from '#features/users/profile-input.ts'
import { findProfile, readOwnProfile, updateOwnProfile } from '#features/users/profiles.server.ts'
import type { Route } from './+types/settings'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: '設定',
    description:
      'プロフィール（表示名・自己紹介・リンク・タイムゾーン）と画像、パスワードの変更、二段階認証、記憶した端末、アカウントの削除を行います。',
  })

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.auth.requireUser(request)
  const profile = await findProfile(context.db, user.username)
  return {
    username: user.username,
    displayName: profile?.displayName ?? user.username,
    email: user.email ?? null,
    avatarUrl: profile?.avatarKey
      ? publicObjectUrl(context.storage.client, profile.avatarKey)
      : null,
    profile: await readOwnProfile(context.db, actorOf(user)),
    // The server's list, so that the page hydrates with the options it was rendered with.
    timeZones: TIME_ZONES,
    features: context.auth.client.features,
  }
}

/** The avatar: the server checks the uploaded object before the profile points at it. */
export async function action({ context, request }: Route.ActionArgs) {
  const user = await context.auth.requireUser(request)
  const form = await request.formData()
  const intent = formString(form, 'intent')
  if (intent === 'setAvatar') {
    const error = await setAvatar(
      context.db,
      context.storage.images,
      user.sub,
      formString(form, 'key'),
    )
    return error ? { intent, error } : { intent, notice: 'プロフィール画像を変更しました。' }
  }
  if (intent === 'updateProfile') {
    return { intent, ...(await saveProfile(context.db, actorOf(user), form)) }
  }
  if (intent === 'removeAvatar') {
    await removeAvatar(context.db, context.storage.images, user.sub)
    return { intent, notice: 'プロフィール画像を削除しました。' }
  }
  throw new Response('Unknown intent', { status: 400 })
}

/** The profile form: links arrive one per line; each field keeps its first message. */
async function saveProfile(
  db: Route.ActionArgs['context']['db'],
  actor: ReturnType<typeof actorOf>,
  form: FormData,
): Promise<FormResult> {
  try {
    await updateOwnProfile(db, actor, {
      displayName: formString(form, 'displayName'),
      bio: formString(form, 'bio'),
      links: formString(form, 'links')
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
      timeZone: formString(form, 'timeZone'),
    })
  } catch (error) {
    if (!(error instanceof ContentError) || !error.fields) throw error
    const errors: Record<string, string> = {}
    for (const [path, messages] of Object.entries(error.fields)) {
      const field = path.split('.')[0] ?? path
      errors[field] ??= messages[0] ?? error.message
    }
    return { errors }
  }
  return { notice: 'プロフィールを保存しました。' }
}

type SettingsResult = FormResult & { intent?: string; done?: boolean }

const SERVER_INTENTS = new Set(['setAvatar', 'removeAvatar', 'updateProfile'])

export async function clientAction({
  request,
  serverAction,
}: Route.ClientActionArgs): Promise<SettingsResult> {
  const form = await request.clone().formData()
  const intent = formString(form, 'intent')
  if (SERVER_INTENTS.has(intent)) return serverAction()
  const auth = await loadAuth()
  const cookie = auth.settings.sessionCookie

  if (intent === 'changePassword') {
    const oldPassword = formString(form, 'oldPassword')
    const newPassword = formString(form, 'newPassword')
    const invalid = fieldErrors({
      oldPassword: oldPassword ? undefined : '現在のパスワードを入力してください。',
      newPassword:
        newPasswordError(newPassword) ??
        (newPassword === oldPassword ? '今と違うパスワードにしてください。' : undefined),
      confirmation:
        newPassword && newPassword !== formString(form, 'confirmation')
          ? '確認用のパスワードが一致しません。'
          : undefined,
    })
    if (invalid) return { ...invalid, intent }
    try {
      await auth.updatePassword({ oldPassword, newPassword })
    } catch (error) {
      return { ...errorResult(error, 'changePassword'), intent }
    }
    return {
      intent,
      done: true,
      notice:
        'パスワードを変更しました。この端末以外でのログインはすべて終了しました。次回から新しいパスワードでログインしてください。',
    }
  }

  if (intent === 'signOutEverywhere') {
    await auth.signOut({ global: true })
    await sessionCookieCleared(cookie)
    throw redirect(`/auth/signin${query({ signedOut: 'all' })}`)
  }

  // Forgetting this browser's device ends the sessions started on it, this one included.
  if (intent === 'forgetThisDevice') {
    try {
      await auth.forgetDevice()
    } catch (error) {
      return { ...errorResult(error, 'other'), intent }
    }
    await auth.signOut()
    await sessionCookieCleared(cookie)
    throw redirect(`/auth/signin${query({ signedOut: 'device' })}`)
  }

  if (intent === 'deleteAccount') {
    const confirmation = formString(form, 'confirmUsername').trim()
    if (confirmation !== formString(form, 'username')) {
      return {
        intent,
        errors: {
          confirmUsername:
            'ユーザー名が一致しません。削除するには、ご自分のユーザー名を入力してください。',
        },
      }
    }
    try {
      await auth.deleteUser()
    } catch (error) {
      return { ...errorResult(error, 'deleteAccount'), intent }
    }
    await sessionCookieCleared(cookie)
    throw redirect(`/auth/signin${query({ deleted: '1' })}`)
  }
  return {}
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { username, displayName, email, avatarUrl, profile, timeZones, features } = loaderData
  const storage = useStorageSettings()
  return (
    <div className="max-w-2xl">
      <h1 className="text-2xl font-bold">設定</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        アカウントとログインに関する設定です。
      </p>
      <div className="mt-8 flex flex-col gap-6">
        <Section title="プロフィール" id="profile">
          <ProfileSettings profile={profile} timeZones={timeZones} />
        </Section>
        <Section title="プロフィール画像" id="avatar">
          <AvatarSettings name={displayName} avatarUrl={avatarUrl} storage={storage} />
        </Section>
        <Section title="アカウント">
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-600 dark:text-slate-400">ユーザー名</dt>
            <dd className="font-semibold break-all">{username}</dd>
            <dt className="text-slate-600 dark:text-slate-400">メールアドレス</dt>
            <dd className="break-all">{email ?? '未登録'}</dd>
            <dt className="text-slate-600 dark:text-slate-400">プロフィール</dt>
            <dd>
              <Link
                to={`/${username}`}
                className="font-semibold text-brand-600 underline underline-offset-3 dark:text-sky-300"
              >
                /{username}
              </Link>
            </dd>
          </dl>
        </Section>
        <ChangePassword />
        <Section title="二段階認証（認証アプリ）" id="mfa">
          {features.totpMfa ? (
            <MfaSettings username={username} />
          ) : (
            <Upcoming>
              <p>
                ログインのときに、パスワードに加えて認証アプリ（Google Authenticator
                など）に表示される6桁のコードを入力する設定です。パスワードが他人に知られても、ログインされにくくなります。
              </p>
              <p className="mt-2">
                この設定は準備中です。使えるようになると、ここに QR
                コードが表示され、アプリで読み取るだけで設定できます。
              </p>
            </Upcoming>
          )}
        </Section>
        <Section title="記憶したデバイス" id="devices">
          {features.rememberedDevices ? (
            <RememberedDevices />
          ) : (
            <Upcoming>
              <p>
                二段階認証を使うとき、よく使うパソコンやスマートフォンを記憶して、次からコードの入力を省けるようにする設定です。記憶した端末の一覧を確認したり、使わなくなった端末を削除したりできます。
              </p>
              <p className="mt-2">二段階認証と同時に使えるようになります。</p>
            </Upcoming>
          )}
        </Section>
        <SignOutEverywhere />
        <DeleteAccount username={username} />
      </div>
    </div>
  )
}

function Section(props: { title: string; id?: string; tone?: 'danger'; children: ReactNode }) {
  const headingId = useId()
  return (
    <section
      id={props.id}
      aria-labelledby={headingId}
      className={`scroll-mt-24 rounded-xl border p-5 sm:p-6 ${
        props.tone === 'danger'
          ? 'border-red-200 dark:border-red-900'
          : 'border-slate-200 dark:border-slate-800'
      }`}
    >
      <h2 id={headingId} className="text-lg font-bold">
        {props.title}
      </h2>
      <div className="mt-4">{props.children}</div>
    </section>
  )
}

function Upcoming({ children }: { children: ReactNode }) {
  return (
    <div className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">
      <p className="mb-2 inline-block rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-300">
        準備中
      </p>
      {children}
    </div>
  )
}

function ChangePassword() {
  const fetcher = useFetcher<SettingsResult>({ key: 'change-password' })
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  const result = fetcher.data?.intent === 'changePassword' ? fetcher.data : undefined
  useFocusOnErrors(result, formRef, messageRef)
  const [generation, setGeneration] = useState(0)
  const errors = result?.errors ?? {}

  // A changed password empties the form (and its checklist) for the next change.
  useEffect(() => {
    if (result?.done) setGeneration((value) => value + 1)
  }, [result])

  return (
    <Section title="パスワードの変更">
      <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">
        変更すると、いま使っているこの端末以外でのログインはすべて終了します。ほかの端末やブラウザでは、新しいパスワードでもう一度ログインしてください。パスワードを忘れて再設定した場合は、すべての端末でログインが終了します。
      </p>
      <fetcher.Form
        key={generation}
        method="post"
        noValidate
        ref={formRef}
        className="flex flex-col gap-3"
      >
        <input type="hidden" name="intent" value="changePassword" />
        {result?.formError && (
          <FormMessage tone="error" focusRef={messageRef}>
            {result.formError}
          </FormMessage>
        )}
        {result?.notice && <FormMessage tone="success">{result.notice}</FormMessage>}
        <PasswordField
          label="現在のパスワード"
          name="oldPassword"
          autoComplete="current-password"
          required
          error={errors.oldPassword}
        />
        <PasswordField
          label="新しいパスワード"
          name="newPassword"
          autoComplete="new-password"
          required
          checklist
          error={errors.newPassword}
        />
        <PasswordField
          label="新しいパスワード（確認用）"
          name="confirmation"
          autoComplete="new-password"
          required
          error={errors.confirmation}
        />
        <div>
          <SubmitButton pending={fetcher.state !== 'idle'} pendingLabel="変更しています…">
            パスワードを変更する
          </SubmitButton>
        </div>
      </fetcher.Form>
    </Section>
  )
}

function SignOutEverywhere() {
  const fetcher = useFetcher<SettingsResult>({ key: 'sign-out-everywhere' })
  return (
    <Section title="すべての端末からログアウト">
      <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">
        この端末を含め、ログインしているすべてのパソコンやスマートフォンからログアウトします。端末をなくしたときや、共用のパソコンでログアウトし忘れたときに使ってください。
      </p>
      <fetcher.Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="signOutEverywhere" />
        <SubmitButton
          pending={fetcher.state !== 'idle'}
          pendingLabel="ログアウトしています…"
          variant="secondary"
        >
          すべての端末からログアウト
        </SubmitButton>
      </fetcher.Form>
    </Section>
  )
}

function DeleteAccount({ username }: { username: string }) {
  const fetcher = useFetcher<SettingsResult>({ key: 'delete-account' })
  const [open, setOpen] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  const result = fetcher.data?.intent === 'deleteAccount' ? fetcher.data : undefined
  useFocusOnErrors(result, formRef, messageRef)
  const firstField = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (open) firstField.current?.querySelector('input')?.focus()
  }, [open])

  return (
    <Section title="アカウントの削除" tone="danger">
      <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">
        アカウントを削除すると、プロフィール、学習の記録、投稿したコース・ラボ・ストーリー・スタディ、メッセージがすべて削除され、元に戻せません。同じユーザー名で登録し直せるとは限りません。
      </p>
      {!open ? (
        <button
          type="button"
          onClick={() => setOpen(true)}
          aria-expanded={false}
          className="mt-4 inline-flex min-h-11 items-center rounded-lg border border-red-300 px-5 font-semibold text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950/50"
        >
          アカウントを削除する…
        </button>
      ) : (
        <fetcher.Form
          method="post"
          noValidate
          ref={formRef}
          className="mt-4 flex flex-col gap-3 rounded-lg bg-red-50 p-4 dark:bg-red-950/40"
        >
          <input type="hidden" name="intent" value="deleteAccount" />
          <input type="hidden" name="username" value={username} />
          {result?.formError && (
            <FormMessage tone="error" focusRef={messageRef}>
              {result.formError}
            </FormMessage>
          )}
          <div ref={firstField}>
            <TextField
              label={`確認のため、ユーザー名「${username}」を入力してください`}
              name="confirmUsername"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              required
              error={result?.errors?.confirmUsername}
            />
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            <SubmitButton
              pending={fetcher.state !== 'idle'}
              pendingLabel="削除しています…"
              variant="danger"
            >
              アカウントを完全に削除する
            </SubmitButton>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="inline-flex min-h-11 items-center justify-center rounded-lg px-5 font-semibold hover:bg-red-100 dark:hover:bg-red-900/40"
            >
              やめる
            </button>
          </div>
        </fetcher.Form>
      )}
    </Section>
  )
}
