import { redirect } from 'react-router'
import { z } from 'zod'
import { AccountSummary } from '#app/components/settings/account-summary.tsx'
import { AvatarSettings } from '#app/components/settings/avatar-settings.tsx'
import { BillingHistory } from '#app/components/settings/billing-history.tsx'
import { ChangePassword } from '#app/components/settings/change-password.tsx'
import { DeleteAccount } from '#app/components/settings/delete-account.tsx'
import { MessageDigestSettings } from '#app/components/settings/message-digest.tsx'
import { ProfileSettings } from '#app/components/settings/profile-settings.tsx'
import { Section, type SettingsResult } from '#app/components/settings/section.tsx'
import { SignOutEverywhere } from '#app/components/settings/sign-out-everywhere.tsx'
import { DevicesSection, MfaSection } from '#app/components/settings/two-factor-sections.tsx'
import {
  errorResult,
  type FormResult,
  formString,
  parseForm,
  sessionCookieCleared,
} from '#app/lib/auth/flow.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { newPasswordPair } from '#app/lib/auth/validation.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { actorOf } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import {
  readDigestSetting,
  updateDigestSetting,
} from '#features/messages/digest-settings.server.ts'
import { billingHistory } from '#features/plans/billing-history.server.ts'
import { removeAvatar, setAvatar } from '#features/users/avatars.server.ts'
import { TIME_ZONES } from '#features/users/profile-input.ts'
import { findProfile, readOwnProfile, updateOwnProfile } from '#features/users/profiles.server.ts'
import type { Route } from './+types/settings'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: '設定',
    description:
      'プロフィール（表示名・自己紹介・リンク・タイムゾーン）と画像、パスワードの変更、二段階認証、記憶した端末、お支払いの履歴、アカウントの削除を行います。',
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
    messageDigest: (await readDigestSetting(context.db, actorOf(user))).digest,
    // The server's list, so that the page hydrates with the options it was rendered with.
    timeZones: TIME_ZONES,
    features: context.auth.client.features,
    billing: await billingHistory(context.db, user.sub),
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
  if (intent === 'messageDigest') {
    const on = form.get('digest') === 'on'
    await updateDigestSetting(context.db, actorOf(user), on)
    return {
      intent,
      notice: on
        ? '未読のメッセージをメールでお知らせします。'
        : 'メッセージのメール通知を止めました。',
    }
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

const changePasswordForm = newPasswordPair
  .and(z.object({ oldPassword: z.string().min(1, '現在のパスワードを入力してください。') }))
  .refine((form) => form.newPassword !== form.oldPassword, {
    path: ['newPassword'],
    error: '今と違うパスワードにしてください。',
  })

const SERVER_INTENTS = new Set(['setAvatar', 'removeAvatar', 'updateProfile', 'messageDigest'])

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
    const parsed = parseForm(changePasswordForm, form)
    if ('result' in parsed) return { ...parsed.result, intent }
    const { oldPassword, newPassword } = parsed.data
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
  const {
    username,
    displayName,
    email,
    avatarUrl,
    profile,
    timeZones,
    features,
    billing,
    messageDigest,
  } = loaderData
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
        <MessageDigestSettings digest={messageDigest} />
        <AccountSummary username={username} email={email} />
        <ChangePassword />
        <MfaSection username={username} available={features.totpMfa} />
        <DevicesSection available={features.rememberedDevices} />
        <Section title="お支払い" id="billing">
          <BillingHistory entries={billing} />
        </Section>
        <SignOutEverywhere />
        <DeleteAccount username={username} />
      </div>
    </div>
  )
}
