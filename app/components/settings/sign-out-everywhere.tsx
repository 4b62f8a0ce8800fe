import { useFetcher } from 'react-router'
import { SubmitButton } from '#app/components/forms.tsx'
import { Section, type SettingsResult } from './section.tsx'

/** Global sign-out (the settings page's `signOutEverywhere` action). */
export function SignOutEverywhere() {
  const fetcher = useFetcher<SettingsResult>({ key: 'sign-out-everywhere' })
  return (
    <Section title="すべての端末からログアウト">
      <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">
        この端末を含め、ログインしているすべてのパソコンやスマートフォンからログアウトします。端末をなくしたときや、共用のパソコンでログアウトし忘れたときに使ってください。
      </p>
      <fetcher.Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="signOutEverywhere" />
        <SubmitButton
          pending={fetcher.state !== 'idle'}
          pendingLabel="ログアウトしています…"
          variant="secondary"
        >
          すべての端末からログアウト
        </SubmitButton>
      </fetcher.Form>
    </Section>
  )
}
