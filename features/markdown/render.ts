import type { Root } from 'hast'
import { toHtml } from 'hast-util-to-html'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize from 'rehype-sanitize'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { rehypeHeadingIds } from './headings.ts'
import { rehypeHighlight } from './highlight.ts'
import { sanitizeSchema } from './sanitize-schema.ts'
import { rehypeUrlPolicy } from './urls.ts'

const remarkRehypeOptions = {
  // The sanitiser adds the prefix to footnote ids; adding it here too would double it.
  clobberPrefix: '',
  footnoteLabel: '脚注',
  footnoteBackLabel: (referenceIndex: number) => `本文の参照 ${referenceIndex + 1} に戻る`,
}

/**
 * The one Markdown renderer (GitHub-flavoured, sanitised, highlighted), for server loaders and
 * the editor's preview alike. Order matters: user HTML is parsed (rehype-raw) and everything is
 * sanitised before our own trusted additions (heading ids, link policy, Shiki's markup).
 */
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { ...remarkRehypeOptions, allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, sanitizeSchema)
  .use(rehypeHeadingIds)
  .use(rehypeUrlPolicy)
  .use(rehypeHighlight)
  .freeze()

/**
 * Comments are plain Markdown: raw HTML (`<img>`, `<details>`…) is shown as the text it is,
 * never parsed, so a comment cannot pull in images or layout that Markdown does not offer.
 */
const plainProcessor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, {
    ...remarkRehypeOptions,
    handlers: { html: (_state, node) => ({ type: 'text', value: node.value }) },
  })
  .use(rehypeSanitize, sanitizeSchema)
  .use(rehypeHeadingIds)
  .use(rehypeUrlPolicy)
  .use(rehypeHighlight)
  .freeze()

/** Which Markdown: `full` (lessons, notes, stories) or `plain`, without raw HTML (comments). */
export type MarkdownFlavour = 'full' | 'plain'

/**
 * Markdown → sanitised HTML. Synchronous, for the editor's preview and trusted fixed texts;
 * user texts on the server go through `stored-html.server.ts`, off the request thread.
 */
export function renderMarkdown(source: string, flavour: MarkdownFlavour = 'full'): string {
  const chosen = flavour === 'plain' ? plainProcessor : processor
  const tree = chosen.runSync(chosen.parse(source)) as Root
  return toHtml(tree)
}
