/**
 * Rendered Markdown. `html` comes from `renderMarkdown` (sanitised), in a loader on the server or
 * in the editor's preview; the same string on both sides, so hydration has nothing to patch.
 */
export function MarkdownView({ html, className = '' }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown's output is sanitised.
  return <div className={`markdown-body ${className}`} dangerouslySetInnerHTML={{ __html: html }} />
}
