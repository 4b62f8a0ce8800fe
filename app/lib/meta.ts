import type { MetaDescriptor } from 'react-router'

type RootData = { settings: { siteTitle: string } } | undefined
type MetaMatch = { id: string; data: unknown } | undefined

/** The site title, read from the root loader so that every page shares one setting. */
export function siteTitleOf(matches: readonly MetaMatch[]): string {
  const root = matches.find((match) => match?.id === 'root')?.data as RootData
  return root?.settings.siteTitle ?? ''
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
