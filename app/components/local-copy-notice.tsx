import { formatDateTime } from '#app/lib/format.ts'
import type { LocalCopyControl } from '#app/lib/local-copy.ts'

/**
 * Says that text typed earlier in this browser (and not saved then) is back in the form, with a
 * way to drop it and return to the saved version.
 */
export function LocalCopyNotice({ copy }: { copy: LocalCopyControl<never> }) {
  if (copy.restoredAt === undefined) return null
  return (
    <div
      role="status"
      data-local-copy-notice
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p>
        保存されていなかった変更（{formatDateTime(copy.restoredAt)}{' '}
        に入力）をこのブラウザから復元しました。内容を確かめてください。
      </p>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          onClick={copy.dismiss}
          className="rounded-md border border-amber-400 px-3 py-1 hover:bg-amber-100 dark:border-amber-600 dark:hover:bg-amber-900"
        >
          このまま続ける
        </button>
        <button
          type="button"
          onClick={copy.discard}
          className="rounded-md border border-red-300 px-3 py-1 text-red-700 hover:bg-red-50 dark:border-red-700 dark:text-red-300 dark:hover:bg-red-950"
        >
          復元した変更を破棄
        </button>
      </div>
    </div>
  )
}
