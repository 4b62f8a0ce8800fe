import { parentPort } from 'node:worker_threads'
import { type MarkdownFlavour, renderMarkdown } from './render.ts'

/**
 * The renderer's thread (server/markdown-renderer.ts): renders one text per message. A text
 * that throws (a stack overflow the structure bounds missed) answers an error; one that takes
 * too long is stopped from outside, by terminating this thread.
 */
export type RenderRequest = { id: number; source: string; flavour: MarkdownFlavour }
export type RenderReply = { id: number; html: string } | { id: number; error: string }

const port = parentPort
if (!port) throw new Error('render-worker.ts runs as a worker thread')
port.on('message', ({ id, source, flavour }: RenderRequest) => {
  let reply: RenderReply
  try {
    reply = { id, html: renderMarkdown(source, flavour) }
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})
// Loading the pipeline (Shiki's grammars) takes a while: deadlines start once this is sent.
port.postMessage('ready')
