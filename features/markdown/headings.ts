import GithubSlugger from 'github-slugger'
import type { Root } from 'hast'
import { toString as textOf } from 'hast-util-to-string'
import { visit } from 'unist-util-visit'

/**
 * Gives each heading an `id` for anchors, GitHub's way: lower case, spaces to hyphens,
 * punctuation dropped, every script's letters kept ("## はじめに" → `id="はじめに"`), repeats
 * numbered. Runs after sanitising, so these ids are ours and carry no `user-content-` prefix
 * (authored ones keep theirs); being lower case, they cannot shadow the camel-case globals our scripts read from `window`.
 */
const HEADING = /^h[1-6]$/

export function rehypeHeadingIds() {
  return (tree: Root) => {
    const slugger = new GithubSlugger()
    visit(tree, 'element', (node) => {
      if (HEADING.test(node.tagName) && !node.properties.id)
        node.properties.id = slugger.slug(textOf(node))
    })
  }
}
