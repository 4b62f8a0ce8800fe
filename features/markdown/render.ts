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

/**
 * The one Markdown renderer (GitHub-flavoured, sanitised, highlighted), for server loaders and
 * the editor's preview alike. Order matters: user HTML is parsed (rehype-raw) and everything is
 * sanitised before our own trusted additions (heading ids, link policy, Shiki's markup).
 */
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, {
    allowDangerousHtml: true,
    // The sanitiser adds the prefix to footnote ids; adding it here too would double it.
    clobberPrefix: '',
    footnoteLabel: '脚注',
    footnoteBackLabel: (referenceIndex) => `本文の参照 ${referenceIndex + 1} に戻る`,
  })
  .use(rehypeRaw)
  .use(rehypeSanitize, sanitizeSchema)
  .use(rehypeHeadingIds)
  .use(rehypeUrlPolicy)
  .use(rehypeHighlight)
  .freeze()

/**
 * Markdown → sanitised HTML. Synchronous, for the editor's preview and trusted fixed texts;
 * user texts on the server go through `stored-html.server.ts`, off the request thread.
 */
export function renderMarkdown(source: string): string {
  const tree = processor.runSync(processor.parse(source)) as Root
  return toHtml(tree)
}
