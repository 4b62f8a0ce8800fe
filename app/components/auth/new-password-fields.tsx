import { PasswordField } from '#app/components/forms.tsx'

/**
 * A new password and its confirmation (sign-in's forced change, the reset, the settings'
 * change): the same two fields, the checklist under the first, errors by field name.
 */
export function NewPasswordFields({ errors }: { errors: Partial<Record<string, string>> }) {
  return (
    <>
      <PasswordField
        label="新しいパスワード"
        name="newPassword"
        autoComplete="new-password"
        required
        checklist
        error={errors.newPassword}
      />
      <PasswordField
        label="新しいパスワード（確認用）"
        name="confirmation"
        autoComplete="new-password"
        required
        error={errors.confirmation}
      />
    </>
  )
}
