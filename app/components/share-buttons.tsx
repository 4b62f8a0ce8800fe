import { useEffect, useState } from 'react'
import { absoluteUrl } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'

const linkClass =
  'inline-flex min-h-9 items-center rounded-full border border-slate-300 px-3 text-sm font-semibold hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'

/** The share targets' own addresses for sharing a page (they open in a new tab). */
export function shareLinks(url: string, title: string) {
  const u = encodeURIComponent(url)
  const t = encodeURIComponent(title)
  return [
    { name: 'X', label: 'X でポスト', href: `https://x.com/intent/post?text=${t}&url=${u}` },
    {
      name: 'Facebook',
      label: 'Facebook でシェア',
      href: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    },
    {
      name: 'はてなブックマーク',
      label: 'はてなブックマークに追加',
      href: `https://b.hatena.ne.jp/add?mode=confirm&url=${u}&title=${t}`,
    },
    {
      name: 'LINE',
      label: 'LINE で送る',
      href: `https://social-plugins.line.me/lineit/share?url=${u}`,
    },
  ]
}

/**
 * Share a public page (`path` on this site) to X, Facebook, Hatena Bookmark or LINE, or copy
 * its address; plain links, so they work before the page's JavaScript has loaded.
 */
export function ShareButtons({ path, title }: { path: string; title: string }) {
  const { baseUrl } = useSettings()
  const url = absoluteUrl(baseUrl, path)
  const [toast, setToast] = useState<string | null>(null)

  useEffect(() => {
    if (!toast) return
    const timer = setTimeout(() => setToast(null), 4000)
    return () => clearTimeout(timer)
  }, [toast])

  async function copy() {
    try {
      await navigator.clipboard.writeText(url)
      setToast('リンクをコピーしました')
    } catch {
      setToast('リンクをコピーできませんでした。アドレスバーの URL をコピーしてください。')
    }
  }

  return (
    <div>
      <ul aria-label="このページを共有" className="flex flex-wrap items-center gap-2">
        {shareLinks(url, title).map((link) => (
          <li key={link.name}>
            <a
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={link.label}
              className={linkClass}
            >
              {link.name}
            </a>
          </li>
        ))}
        <li>
          <button type="button" onClick={() => void copy()} className={linkClass}>
            リンクをコピー
          </button>
        </li>
      </ul>
      <div
        role="status"
        className={
          toast
            ? 'fixed inset-x-0 bottom-6 z-50 mx-auto w-fit rounded-lg bg-slate-900 px-4 py-2 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900'
            : 'sr-only'
        }
      >
        {toast}
      </div>
    </div>
  )
}
