import type { Element, Root } from 'hast'
import { visit } from 'unist-util-visit'
import { CLOBBER_PREFIX } from './sanitize-schema.ts'

// Resolving against a base that cannot be a real host tells relative URLs (same site) from
// absolute ones, including the tricky `//host` and `/\host` forms that browsers treat as absolute.
const RELATIVE_BASE = 'https://relative.invalid/'

function parse(url: string): URL | null {
  try {
    return new URL(url, RELATIVE_BASE)
  } catch {
    return null
  }
}

function isSameSite(url: URL): boolean {
  return url.origin === new URL(RELATIVE_BASE).origin
}

const EXTERNAL_REL = ['nofollow', 'noopener', 'noreferrer', 'ugc']

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment)
  } catch {
    return fragment
  }
}

/**
 * The sanitiser prefixes authored ids (`id="x"` → `id="user-content-x"`) so they cannot shadow
 * globals; fragment links follow them when no heading id of ours has that name.
 */
function followPrefixedFragment(href: string, ids: Set<string>): string {
  if (!href.startsWith('#')) return href
  const target = decodeFragment(href.slice(1))
  const prefixed = `${CLOBBER_PREFIX}${target}`
  return !ids.has(target) && ids.has(prefixed) ? `#${prefixed}` : href
}

function secureLink(node: Element, ids: Set<string>) {
  if (typeof node.properties.href !== 'string') return
  const href = followPrefixedFragment(node.properties.href, ids)
  node.properties.href = href
  const url = parse(href)
  if (!url) {
    delete node.properties.href
    return
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (isSameSite(url)) return
    node.properties.rel = EXTERNAL_REL
    node.properties.target = '_blank'
  }
}

function secureImage(node: Element) {
  const src = node.properties.src
  if (typeof src !== 'string') return
  const url = parse(src)
  // Only https (no mixed content) or this site's own paths, such as `/s3/{bucket}/public/...`.
  if (!url || !(url.protocol === 'https:' || isSameSite(url))) delete node.properties.src
  node.properties.loading = 'lazy'
}

/**
 * The link and image policy on top of the sanitiser's protocol list: external links open in a
 * new tab without passing authority or the opener; images are https or same-site and lazy.
 */
export function rehypeUrlPolicy() {
  return (tree: Root) => {
    const ids = new Set<string>()
    visit(tree, 'element', (node) => {
      if (typeof node.properties.id === 'string') ids.add(node.properties.id)
    })
    visit(tree, 'element', (node) => {
      if (node.tagName === 'a') secureLink(node, ids)
      else if (node.tagName === 'img') secureImage(node)
    })
  }
}
