// The run panel mounted on its own into any element of a page: the e2e tests and the bench
// drive the real component in a real page of the site (same origin, policy and styles) before
// any page renders it. Built as a chunk of its own (vite.config.ts); no page imports it.
import { createRoot } from 'react-dom/client'
import { CodeRunPanel, type CodeRunPanelProps } from '#app/components/exercises/code-run-panel.tsx'

export function mountCodeRunPanel(element: HTMLElement, props: CodeRunPanelProps): () => void {
  const root = createRoot(element)
  root.render(<CodeRunPanel {...props} />)
  return () => root.unmount()
}
