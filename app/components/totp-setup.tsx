import { useEffect, useState } from 'react'

/**
 * The QR code an authenticator app scans (an `otpauth://` URI), with the secret written out
 * for people who type it in instead. Drawn in the browser; the secret never reaches a log.
 */
export function TotpSetup({ uri, secret }: { uri: string; secret: string }) {
  const [image, setImage] = useState<string>()
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    let cancelled = false
    import('qrcode')
      .then((qrcode) => qrcode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 200 }))
      .then((url) => {
        if (!cancelled) setImage(url)
      })
      .catch(() => {
        if (!cancelled) setFailed(true)
      })
    return () => {
      cancelled = true
    }
  }, [uri])

  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <div className="grid size-[200px] place-items-center rounded bg-white">
        {image ? (
          <img src={image} width={200} height={200} alt="認証アプリで読み取る QR コード" />
        ) : (
          <span className="text-sm text-slate-600">
            {failed ? 'QR コードを表示できませんでした' : 'QR コードを準備しています…'}
          </span>
        )}
      </div>
      <details className="w-full text-sm">
        <summary className="cursor-pointer text-brand-600 dark:text-sky-300">
          QR コードを読み取れないとき
        </summary>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          認証アプリで「セットアップキーを入力」を選び、次のキーを入力してください（時間ベース）。
        </p>
        <p
          data-totp-secret
          className="mt-2 rounded bg-slate-100 px-3 py-2 font-mono text-sm break-all dark:bg-slate-800"
        >
          {secret.replace(/(.{4})/g, '$1 ').trim()}
        </p>
      </details>
    </div>
  )
}
