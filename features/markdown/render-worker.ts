import { parentPort } from 'node:worker_threads'
import { markdownImageSources } from './images.ts'
import { type MarkdownFlavour, renderMarkdown } from './render.ts'

/**
 * The renderer's thread (server/markdown-renderer.ts): answers one text per message, its HTML
 * (`html`) or the addresses of the images it shows (`images`, the save-time check of a body).
 * A text that throws (a stack overflow the structure bounds missed) answers an error; one that
 * takes too long is stopped from outside, by terminating this thread.
 */
export type RenderTask = 'html' | 'images'
export type RenderRequest = {
  id: number
  task: RenderTask
  source: string
  flavour: MarkdownFlavour
}
export type RenderReply =
  | { id: number; html: string }
  | { id: number; images: string[] }
  | { id: number; error: string }

const port = parentPort
if (!port) throw new Error('render-worker.ts runs as a worker thread')
port.on('message', ({ id, task, source, flavour }: RenderRequest) => {
  let reply: RenderReply
  try {
    reply =
      task === 'images'
        ? { id, images: markdownImageSources(source) }
        : { id, html: renderMarkdown(source, flavour) }
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})
// Loading the pipeline (Shiki's grammars) takes a while: deadlines start once this is sent.
port.postMessage('ready')
