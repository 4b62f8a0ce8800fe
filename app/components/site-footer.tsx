import { Link } from 'react-router'
import { ThemeToggle } from './theme-toggle.tsx'

const FOOTER_LINKS = [
  { to: '/example', label: 'お試しレッスン' },
  { to: '/plans', label: '料金プラン' },
  { to: '/contact', label: 'お問い合わせ' },
  { to: '/terms', label: '利用規約' },
  { to: '/privacy', label: 'プライバシーポリシー' },
] as const

export function SiteFooter({ siteTitle }: { siteTitle?: string }) {
  return (
    <footer className="mt-auto border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between dark:text-slate-400">
        <nav aria-label="フッターメニュー">
          <ul className="flex flex-wrap gap-x-4 gap-y-2">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
          <ThemeToggle />
          <p>© {siteTitle ?? 'テックラボ'}</p>
        </div>
      </div>
    </footer>
  )
}
