import { useFetcher } from 'react-router'
import { FormMessage, SubmitButton } from '#app/components/forms.tsx'
import { Section } from './section.tsx'

type DigestResult = { intent?: string; notice?: string }

/**
 * The e-mail digest of unread direct messages: off unless the user turns it on. At most one
 * mail an hour, about messages left unread for a while, never their text.
 */
export function MessageDigestSettings({ digest }: { digest: boolean }) {
  const fetcher = useFetcher<DigestResult>({ key: 'messageDigest' })
  const result = fetcher.data?.intent === 'messageDigest' ? fetcher.data : undefined
  return (
    <Section title="メッセージのメール通知" id="message-digest">
      <fetcher.Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="messageDigest" />
        {result?.notice && <FormMessage tone="success">{result.notice}</FormMessage>}
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            name="digest"
            value="on"
            defaultChecked={digest}
            className="mt-1 size-4 accent-brand-600"
          />
          <span>
            <span className="block font-semibold">未読のメッセージをメールでまとめて受け取る</span>
            <span className="block text-sm text-slate-600 dark:text-slate-400">
              しばらく読まれていないメッセージがあるとき、1 時間に 1
              通まで、誰から何件届いているかをお知らせします（本文は含みません）。
            </span>
          </span>
        </label>
        <div>
          <SubmitButton pending={fetcher.state !== 'idle'} variant="secondary">
            保存する
          </SubmitButton>
        </div>
      </fetcher.Form>
    </Section>
  )
}
