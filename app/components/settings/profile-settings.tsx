import { useId, useRef } from 'react'
import { useFetcher } from 'react-router'
import {
  FieldError,
  FormMessage,
  SubmitButton,
  TextField,
  useFocusOnErrors,
} from '#app/components/forms.tsx'
import { fieldLimits } from '#app/lib/field-limits.ts'
import type { ProfileFields } from '#features/users/profile-input.ts'
import { MAX_PROFILE_LINKS, profileFields } from '#features/users/profile-input.ts'
import { TimeZoneField } from './time-zone-field.tsx'

type ProfileResult = {
  intent?: string
  errors?: Partial<Record<string, string>>
  formError?: string
  notice?: string
}

const controlClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-3 focus:ring-brand-500/30 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100'

/**
 * Display name, bio, links and the time zone /histories counts days in. The server validates
 * again (features/users/profile-input.ts) and answers with a message per field.
 */
export function ProfileSettings(props: { profile: ProfileFields; timeZones: readonly string[] }) {
  const fetcher = useFetcher<ProfileResult>({ key: 'profile' })
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  const result = fetcher.data?.intent === 'updateProfile' ? fetcher.data : undefined
  useFocusOnErrors(result, formRef, messageRef)
  const errors = result?.errors ?? {}
  const id = useId()
  return (
    <fetcher.Form method="post" noValidate ref={formRef} className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="updateProfile" />
      {result?.formError && (
        <FormMessage tone="error" focusRef={messageRef}>
          {result.formError}
        </FormMessage>
      )}
      {result?.notice && <FormMessage tone="success">{result.notice}</FormMessage>}
      <TextField
        label="表示名"
        name="displayName"
        defaultValue={props.profile.displayName}
        maxLength={fieldLimits(profileFields.shape.displayName).maxLength}
        required
        error={errors.displayName}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-bio`} className="text-sm font-semibold">
          自己紹介
        </label>
        <textarea
          id={`${id}-bio`}
          name="bio"
          rows={4}
          maxLength={fieldLimits(profileFields.shape.bio).maxLength}
          defaultValue={props.profile.bio}
          aria-invalid={errors.bio ? true : undefined}
          aria-describedby={`${id}-bio-error`}
          className={controlClass}
        />
        <FieldError id={`${id}-bio-error`} error={errors.bio} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-links`} className="text-sm font-semibold">
          リンク
        </label>
        <p id={`${id}-links-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {`GitHub やブログなどの URL を 1 行に 1 つ、${MAX_PROFILE_LINKS} 件まで。`}
        </p>
        <textarea
          id={`${id}-links`}
          name="links"
          rows={3}
          defaultValue={props.profile.links.join('\n')}
          aria-invalid={errors.links ? true : undefined}
          aria-describedby={`${id}-links-hint ${id}-links-error`}
          className={controlClass}
        />
        <FieldError id={`${id}-links-error`} error={errors.links} />
      </div>
      <TimeZoneField
        id={id}
        timeZones={props.timeZones}
        defaultValue={props.profile.timeZone}
        error={errors.timeZone}
        controlClass={controlClass}
      />
      <div>
        <SubmitButton pending={fetcher.state !== 'idle'} pendingLabel="保存しています…">
          プロフィールを保存する
        </SubmitButton>
      </div>
    </fetcher.Form>
  )
}
