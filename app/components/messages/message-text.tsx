import { linkify } from '#features/messages/linkify.ts'

/**
 * A message's plain text: line breaks kept (pre-wrap), http(s) addresses as links, everything
 * else as text nodes. Never HTML: React escapes every part, so markup someone typed is shown,
 * not run.
 */
export function MessageText({ text }: { text: string }) {
  return (
    <p className="whitespace-pre-wrap break-words">
      {linkify(text).map((part, index) =>
        part.kind === 'link' ? (
          <a
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder
            key={index}
            href={part.href}
            rel="nofollow noopener noreferrer ugc"
            target="_blank"
            className="underline decoration-1 underline-offset-2 break-all"
          >
            {part.text}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  )
}
