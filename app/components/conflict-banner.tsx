/** Shown when a save was refused as stale: the editor stops saving instead of overwriting. */
export function ConflictBanner({ what }: { what: string }) {
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-semibold">{what}はほかのタブまたは端末で更新されています。</p>
      <p className="mt-1 text-sm">
        上書きを防ぐため、この画面からの保存を止めました。再読み込みして最新の内容から編集を続けてください。
      </p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="mt-3 rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white"
      >
        再読み込みする
      </button>
    </div>
  )
}
