import { useNavigation } from 'react-router'

/**
 * Whether this page's form is being submitted, or its result is loading; with `intent`,
 * only the submission made by the button with that value.
 */
export function useSubmitting(intent?: string): boolean {
  const navigation = useNavigation()
  if (navigation.state === 'idle' || !navigation.formData) return false
  return intent === undefined || navigation.formData.get('intent') === intent
}
