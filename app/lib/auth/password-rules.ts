import { PASSWORD_FORMAT } from './identity-config.ts'

/**
 * The password policy as a checklist, with the words the forms show. Apart from the zod
 * schemas (validation.ts): every page's forms module shows the checklist, and no page should
 * download zod for it.
 */
export const PASSWORD_RULES = [
  {
    id: 'length',
    label: `${PASSWORD_FORMAT.minLength}文字以上`,
    test: (p: string) => [...p].length >= PASSWORD_FORMAT.minLength,
  },
  { id: 'upper', label: '英大文字（A〜Z）', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'lower', label: '英小文字（a〜z）', test: (p: string) => /[a-z]/.test(p) },
  { id: 'digit', label: '数字（0〜9）', test: (p: string) => /[0-9]/.test(p) },
  {
    id: 'symbol',
    label: '記号（!・#・@ など）',
    // Cognito's special characters: ^ $ * . [ ] { } ( ) ? " ! @ # % & / \ , > < ' : ; | _ ~ ` = + - and space.
    test: (p: string) => /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/.test(p),
  },
] as const

export type PasswordRuleId = (typeof PASSWORD_RULES)[number]['id']

export function passwordChecks(
  password: string,
): { id: PasswordRuleId; label: string; met: boolean }[] {
  return PASSWORD_RULES.map((rule) => ({
    id: rule.id,
    label: rule.label,
    met: rule.test(password),
  }))
}

export function passwordMeetsPolicy(password: string): boolean {
  return PASSWORD_RULES.every((rule) => rule.test(password))
}
