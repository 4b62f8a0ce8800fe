import { useCallback, useEffect, useState } from 'react'
import { authErrorMessage } from '../../lib/auth/errors.ts'
import { loadAuth } from '../../lib/auth/load-auth.ts'
import { FormMessage, Spinner } from '../forms.tsx'

type Device = { id: string; name: string; lastUsed: Date | undefined }

const DATE = new Intl.DateTimeFormat('ja-JP', { dateStyle: 'medium', timeStyle: 'short' })

/** The devices the user pool remembers for this account, each of which can be forgotten. */
export function RememberedDevices() {
  const [devices, setDevices] = useState<Device[]>()
  const [error, setError] = useState<string>()
  const [forgetting, setForgetting] = useState<string>()

  const load = useCallback(async () => {
    try {
      const auth = await loadAuth()
      const list = await auth.fetchDevices()
      setDevices(
        list.map((device) => ({
          id: device.id,
          name: device.name ?? device.attributes?.device_name ?? '名前のない端末',
          lastUsed: device.lastAuthenticatedDate ?? device.lastModifiedDate,
        })),
      )
    } catch (failure) {
      setError(authErrorMessage(failure).message)
    }
  }, [])

  useEffect(() => {
    void load()
  }, [load])

  async function forget(id: string) {
    setForgetting(id)
    setError(undefined)
    try {
      const auth = await loadAuth()
      await auth.forgetDevice({ device: { id } })
      await load()
    } catch (failure) {
      setError(authErrorMessage(failure).message)
    } finally {
      setForgetting(undefined)
    }
  }

  if (error) return <FormMessage tone="error">{error}</FormMessage>
  if (!devices) {
    return (
      <p className="flex items-center gap-2 text-sm" role="status">
        <Spinner /> 端末の一覧を読み込んでいます…
      </p>
    )
  }
  if (devices.length === 0) {
    return (
      <p className="text-sm text-slate-700 dark:text-slate-300">記憶している端末はありません。</p>
    )
  }
  return (
    <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
      {devices.map((device) => (
        <li key={device.id} className="flex items-center justify-between gap-4 py-3">
          <span>
            <span className="block font-semibold">{device.name}</span>
            {device.lastUsed && (
              <span className="block text-slate-600 dark:text-slate-400">
                最後に使った日時: {DATE.format(device.lastUsed)}
              </span>
            )}
          </span>
          <button
            type="button"
            onClick={() => forget(device.id)}
            aria-disabled={forgetting !== undefined || undefined}
            className="inline-flex min-h-10 shrink-0 items-center gap-2 rounded-lg border border-slate-300 px-4 font-semibold hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            {forgetting === device.id && <Spinner />}
            削除
          </button>
        </li>
      ))}
    </ul>
  )
}
