import { useCallback, useEffect, useState } from 'react'
import { useFetcher } from 'react-router'
import { FormMessage, Spinner, SubmitButton } from '#app/components/forms.tsx'
import { friendlyDeviceName } from '#app/lib/auth/device-name.ts'
import { authErrorMessage } from '#app/lib/auth/errors.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'

type Device = {
  id: string
  name: string
  remembered: boolean
  lastUsed: Date | undefined
}

type Listing = { devices: Device[]; currentId: string | undefined }

const DATE = new Intl.DateTimeFormat('ja-JP', { dateStyle: 'medium', timeStyle: 'short' })

/** The devices listed with this browser's first, then the most recently used. */
function ordered(devices: Device[], currentId: string | undefined): Device[] {
  const time = (device: Device) => device.lastUsed?.getTime() ?? 0
  return [...devices].sort(
    (a, b) => Number(b.id === currentId) - Number(a.id === currentId) || time(b) - time(a),
  )
}

/**
 * The devices the user pool knows for this account (each browser that signed in and kept its
 * device key): which are remembered, so that signing in there skips the authenticator-app
 * code, and a way to remember this browser or forget any of them. Forgetting this browser
 * also ends its session (the settings page's `forgetThisDevice` action signs out).
 */
export function RememberedDevices() {
  const [listing, setListing] = useState<Listing>()
  const [error, setError] = useState<string>()
  const [notice, setNotice] = useState<string>()
  const [busy, setBusy] = useState<string>()
  const forgetThis = useFetcher<{ formError?: string }>({ key: 'forget-this-device' })

  const load = useCallback(async () => {
    const auth = await loadAuth()
    const [list, session] = await Promise.all([auth.fetchDevices(), auth.fetchAuthSession()])
    const claim = session.tokens?.accessToken.payload.device_key
    const currentId = typeof claim === 'string' ? claim : undefined
    const devices = list.map((device) => ({
      id: device.id,
      name: device.name ? friendlyDeviceName(device.name) : '名前のないデバイス',
      remembered: device.attributes?.['dev:device_remembered_status'] === 'remembered',
      lastUsed: device.lastAuthenticatedDate ?? device.lastModifiedDate,
    }))
    setListing({ devices: ordered(devices, currentId), currentId })
  }, [])

  useEffect(() => {
    load().catch((failure: unknown) => setError(authErrorMessage(failure).message))
  }, [load])

  async function run(id: string, task: () => Promise<void>, done: string) {
    if (busy) return
    setBusy(id)
    setError(undefined)
    setNotice(undefined)
    try {
      await task()
      await load()
      setNotice(done)
    } catch (failure) {
      setError(authErrorMessage(failure).message)
    } finally {
      setBusy(undefined)
    }
  }

  const remember = (id: string) =>
    run(
      id,
      async () => (await loadAuth()).rememberDevice(),
      'このデバイスを記憶しました。次回からこのデバイスでは認証アプリのコードを省略できます。',
    )
  const forget = (device: Device) =>
    run(
      device.id,
      async () => (await loadAuth()).forgetDevice({ device: { id: device.id } }),
      `「${device.name}」を削除しました。そのデバイスはログアウトされます。`,
    )

  if (!listing) {
    if (error) return <FormMessage tone="error">{error}</FormMessage>
    return (
      <p className="flex items-center gap-2 text-sm" role="status">
        <Spinner /> デバイスの一覧を読み込んでいます…
      </p>
    )
  }
  const { devices, currentId } = listing
  return (
    <div className="flex flex-col gap-4 text-sm">
      <p className="leading-relaxed text-slate-700 dark:text-slate-300">
        記憶したデバイスでは、ログインのときに認証アプリのコードの入力を省略できます。使わなくなったデバイスや、心当たりのないデバイスは削除してください。削除したデバイスはログアウトされます。
      </p>
      {(error ?? forgetThis.data?.formError) && (
        <FormMessage tone="error">{error ?? forgetThis.data?.formError}</FormMessage>
      )}
      {notice && <FormMessage tone="success">{notice}</FormMessage>}
      {devices.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">一覧に表示できるデバイスはありません。</p>
      ) : (
        <ul
          aria-label="ログインに使ったデバイス"
          className="divide-y divide-slate-200 dark:divide-slate-800"
        >
          {devices.map((device) => {
            const current = device.id === currentId
            return (
              <li
                key={device.id}
                className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold break-all">{device.name}</span>
                    {current && (
                      <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 dark:bg-slate-800 dark:text-sky-300">
                        このデバイス
                      </span>
                    )}
                  </p>
                  <p className="text-slate-600 dark:text-slate-400">
                    {device.remembered ? '記憶済み' : '記憶していません'}
                    {device.lastUsed && ` ・ 最後に使った日時: ${DATE.format(device.lastUsed)}`}
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap gap-2">
                  {current && !device.remembered && (
                    <button
                      type="button"
                      onClick={() => remember(device.id)}
                      aria-disabled={busy !== undefined || undefined}
                      className="inline-flex min-h-10 items-center gap-2 rounded-lg bg-brand-600 px-4 font-semibold text-white hover:bg-brand-700"
                    >
                      {busy === device.id && <Spinner />}
                      このデバイスを記憶する
                    </button>
                  )}
                  {current ? (
                    <forgetThis.Form method="post">
                      <input type="hidden" name="intent" value="forgetThisDevice" />
                      <SubmitButton
                        pending={forgetThis.state !== 'idle'}
                        pendingLabel="削除しています…"
                        variant="secondary"
                        className="min-h-10"
                      >
                        削除してログアウト
                      </SubmitButton>
                    </forgetThis.Form>
                  ) : (
                    <button
                      type="button"
                      onClick={() => forget(device)}
                      aria-disabled={busy !== undefined || undefined}
                      aria-label={`「${device.name}」を削除`}
                      className="inline-flex min-h-10 items-center gap-2 rounded-lg border border-slate-300 px-4 font-semibold hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
                    >
                      {busy === device.id && <Spinner />}
                      削除
                    </button>
                  )}
                </div>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
