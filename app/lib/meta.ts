import { isRouteErrorResponse, type MetaDescriptor } from 'react-router'
import { type ClientStorageSettings, publicObjectUrl } from './storage/storage-settings.ts'

type RootData = { settings: { siteTitle: string } } | undefined
type MetaMatch = { id: string; data: unknown } | undefined

/** The site title, read from the root loader so that every page shares one setting. */
export function siteTitleOf(matches: readonly MetaMatch[]): string {
  const root = matches.find((match) => match?.id === 'root')?.data as RootData
  return root?.settings.siteTitle ?? ''
}

/**
 * The title of an error page (`404: This page could not be found | site`), for the root and for
 * a content page whose own error boundary shows the error.
 */
export function errorMeta(matches: readonly MetaMatch[], error: unknown): MetaDescriptor[] {
  const site = siteTitleOf(matches)
  const status = isRouteErrorResponse(error) ? error.status : 500
  const title = status === 404 ? 'This page could not be found' : 'Error'
  return [{ title: site ? `${status}: ${title} | ${site}` : `${status}: ${title}` }]
}

/** `<title>` and description for a page: "ページ名 | サイト名". */
export function pageMeta(
  matches: readonly MetaMatch[],
  page: { title?: string; description: string },
): MetaDescriptor[] {
  const site = siteTitleOf(matches)
  const title = page.title ? (site ? `${page.title} | ${site}` : page.title) : site
  return [{ title }, { name: 'description', content: page.description }]
}

type ShareRootData =
  | {
      settings: { siteTitle: string; baseUrl: string }
      storage: ClientStorageSettings
    }
  | undefined

/** The site image crawlers show for pages without a cover of their own (public/). */
export const DEFAULT_SHARE_IMAGE = '/og-default.png'

/** `path` on the site's configured origin (PUBLIC_BASE_URL), as crawlers and share links need. */
export function absoluteUrl(baseUrl: string, path: string): string {
  return new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString()
}

/**
 * A public content page's meta: title and description, and the OGP and Twitter card tags
 * with a canonical absolute URL, rendered on the server so crawlers read them without
 * running JavaScript. `imageKey` is a public object (a cover); without one, the site image.
 */
export function shareableMeta(
  matches: readonly MetaMatch[],
  page: { title: string; description: string; path: string; imageKey?: string | null },
): MetaDescriptor[] {
  const root = matches.find((match) => match?.id === 'root')?.data as ShareRootData
  if (!root) return pageMeta(matches, page)
  const { baseUrl, siteTitle } = root.settings
  const url = absoluteUrl(baseUrl, page.path)
  const image = absoluteUrl(
    baseUrl,
    page.imageKey ? publicObjectUrl(root.storage, page.imageKey) : DEFAULT_SHARE_IMAGE,
  )
  return [
    ...pageMeta(matches, page),
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: 'article' },
    { property: 'og:site_name', content: siteTitle },
    { property: 'og:title', content: page.title },
    { property: 'og:description', content: page.description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { property: 'og:locale', content: 'ja_JP' },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: page.title },
    { name: 'twitter:description', content: page.description },
    { name: 'twitter:image', content: image },
  ]
}
