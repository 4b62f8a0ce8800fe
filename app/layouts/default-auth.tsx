import { Link, Outlet } from 'react-router'
import { useSettings } from '#app/lib/root-data.ts'

/** The `default-auth` layout: a quiet frame around sign-in and sign-up screens. */
export default function DefaultAuthLayout() {
  const { siteTitle } = useSettings()
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 dark:bg-slate-900">
      <header className="px-4 py-6 text-center">
        <Link to="/" className="inline-flex items-center gap-2 font-bold">
          <span
            className="grid size-8 place-items-center rounded-lg bg-brand-600 text-sm text-white"
            aria-hidden="true"
          >
            TL
          </span>
          {siteTitle}
        </Link>
      </header>
      <main id="main" className="mx-auto w-full max-w-md flex-1 px-4 pb-16">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-700 dark:bg-slate-950">
          <Outlet />
        </div>
      </main>
      <footer className="py-6 text-center text-xs text-slate-500 dark:text-slate-400">
        <Link to="/terms" className="hover:underline">
          利用規約
        </Link>
        <span aria-hidden="true"> ・ </span>
        <Link to="/privacy" className="hover:underline">
          プライバシーポリシー
        </Link>
      </footer>
    </div>
  )
}
