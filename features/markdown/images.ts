import type { Root } from 'hast'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize from 'rehype-sanitize'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { visit } from 'unist-util-visit'
import { sanitizeSchema } from './sanitize-schema.ts'

/**
 * The renderer's steps up to sanitising (render.ts), without highlighting: the images a
 * reader's page asks for are the `<img>`s of this tree, whether written as Markdown, as a
 * reference or as raw HTML with entities in its attributes.
 */
const imageTree = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, sanitizeSchema)
  .freeze()

/** The addresses of the images in a full-flavour Markdown text, each once, in order. */
export function markdownImageSources(source: string): string[] {
  if (source.trim() === '') return []
  const tree = imageTree.runSync(imageTree.parse(source)) as Root
  const sources = new Set<string>()
  visit(tree, 'element', (node) => {
    if (node.tagName === 'img' && typeof node.properties.src === 'string') {
      sources.add(node.properties.src)
    }
  })
  return [...sources]
}
