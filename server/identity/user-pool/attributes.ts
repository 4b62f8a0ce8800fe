import { invalidParameter } from '#server/identity/cognito-error.ts'
import type { TokenSubject } from '#server/identity/tokens/issue.ts'
import { normalizeEmail, type PoolUser, type PoolUserPatch } from './users.ts'

/**
 * User attributes as the Cognito API shows them: `{Name, Value}` pairs of strings. `sub`,
 * `email` and `phone_number` (and whether they are verified) live in their own columns; the
 * other standard attributes and `custom:…` ones in a JSON object.
 */
export type AttributeType = { Name: string; Value: string }

const STANDARD = new Set([
  'address',
  'birthdate',
  'family_name',
  'gender',
  'given_name',
  'locale',
  'middle_name',
  'name',
  'nickname',
  'picture',
  'preferred_username',
  'profile',
  'updated_at',
  'website',
  'zoneinfo',
])
/**
 * The pool's custom attributes (Cognito's schema, declared once here): none. The site keeps
 * profiles and plans in its own tables, so a `custom:` name from a client is refused as Cognito
 * refuses one its pool does not declare. Declaring one is adding its name to this set.
 */
export const CUSTOM_ATTRIBUTES: ReadonlySet<string> = new Set<string>()

const isCustom = (name: string) => name.startsWith('custom:')
const notInSchema = (name: string) =>
  invalidParameter(`Invalid user attributes: ${name}: Attribute does not exist in the schema.`)
const EMAIL = /^[^\s@"<>()[\]\\,;:]{1,64}@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]{2,}$/
const PHONE = /^\+[1-9]\d{4,14}$/
/** The most other attributes a user may have, so one account cannot grow without bound. */
const MAX_OTHER_ATTRIBUTES = 50

export function storedAttributes(user: Pick<PoolUser, 'attributes'>): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(user.attributes)
    if (!parsed || typeof parsed !== 'object') return {}
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    )
  } catch {
    return {}
  }
}

export function attributeList(user: PoolUser): AttributeType[] {
  const list: AttributeType[] = [{ Name: 'sub', Value: user.sub }]
  if (user.email !== null) {
    list.push({ Name: 'email', Value: user.email })
    list.push({ Name: 'email_verified', Value: String(user.email_verified === 1) })
  }
  if (user.phone_number !== null) {
    list.push({ Name: 'phone_number', Value: user.phone_number })
    list.push({ Name: 'phone_number_verified', Value: String(user.phone_number_verified === 1) })
  }
  for (const [Name, Value] of Object.entries(storedAttributes(user))) list.push({ Name, Value })
  return list
}

/** Checks a sign-up's attributes and returns them as columns of a new user. */
export function newUserAttributes(
  attributes: readonly AttributeType[],
  options: { trusted: boolean },
): Pick<
  PoolUser,
  'email' | 'email_verified' | 'phone_number' | 'phone_number_verified' | 'attributes'
> {
  // A new user's attributes are checked against the schema first, in Cognito's words for it.
  for (const { Name: name } of attributes) {
    if (isCustom(name) && !CUSTOM_ATTRIBUTES.has(name)) {
      throw invalidParameter(
        `Attributes did not conform to the schema: Type for attribute {${name}} could not be determined`,
      )
    }
  }
  const empty = { email: null, phone_number: null, attributes: '{}' }
  const { patch } = attributeChanges(empty, attributes, options)
  const email = patch.email ?? null
  if (email === null)
    throw invalidParameter(
      'Attributes did not conform to the schema: email: The attribute is required',
    )
  return {
    email,
    email_verified: patch.email_verified ?? 0,
    phone_number: patch.phone_number ?? null,
    phone_number_verified: patch.phone_number_verified ?? 0,
    attributes: patch.attributes ?? '{}',
  }
}

/**
 * Applies `UpdateUserAttributes`-style changes. A new email is unverified until its code is
 * confirmed; only trusted callers (administrators) may set `*_verified` themselves.
 */
export function attributeChanges(
  user: Pick<PoolUser, 'email' | 'phone_number' | 'attributes'>,
  updates: readonly AttributeType[],
  options: { trusted: boolean },
): { patch: PoolUserPatch; emailChanged: boolean } {
  const patch: PoolUserPatch = {}
  const others = storedAttributes(user)
  let emailChanged = false
  let othersChanged = false
  for (const { Name: name, Value: value } of updates) {
    if (name === 'email') {
      if (!EMAIL.test(value) || value.length > 254)
        throw invalidParameter('Invalid email address format.')
      const email = normalizeEmail(value)
      if (email !== user.email) {
        patch.email = email
        patch.email_verified = 0
        emailChanged = true
      }
    } else if (name === 'phone_number') {
      if (!PHONE.test(value)) throw invalidParameter('Invalid phone number format.')
      if (value !== user.phone_number) {
        patch.phone_number = value
        patch.phone_number_verified = 0
      }
    } else if ((name === 'email_verified' || name === 'phone_number_verified') && options.trusted) {
      if (value !== 'true' && value !== 'false') {
        throw invalidParameter(`Invalid user attributes: ${name}: must be true or false`)
      }
      patch[name] = value === 'true' ? 1 : 0
    } else if (STANDARD.has(name) || CUSTOM_ATTRIBUTES.has(name)) {
      others[name] = value
      othersChanged = true
    } else if (isCustom(name)) {
      throw notInSchema(name)
    } else {
      throw invalidParameter(`Invalid user attributes: ${name}: Attribute cannot be updated.`)
    }
  }
  if (othersChanged) {
    if (Object.keys(others).length > MAX_OTHER_ATTRIBUTES) {
      throw invalidParameter('Invalid user attributes: too many attributes')
    }
    patch.attributes = JSON.stringify(others)
  }
  // An email whose verification was requested along with the change stays verified.
  if (
    emailChanged &&
    options.trusted &&
    updates.some((u) => u.Name === 'email_verified' && u.Value === 'true')
  ) {
    patch.email_verified = 1
  }
  return { patch, emailChanged }
}

export function attributeDeletions(
  user: Pick<PoolUser, 'attributes'>,
  names: readonly string[],
): PoolUserPatch {
  const patch: PoolUserPatch = {}
  const others = storedAttributes(user)
  let othersChanged = false
  for (const name of names) {
    if (name === 'email') {
      throw invalidParameter('Invalid user attributes: email: The attribute is required')
    } else if (name === 'phone_number') {
      patch.phone_number = null
      patch.phone_number_verified = 0
    } else if (STANDARD.has(name) || CUSTOM_ATTRIBUTES.has(name)) {
      if (name in others) {
        delete others[name]
        othersChanged = true
      }
    } else if (isCustom(name)) {
      throw notInSchema(name)
    } else {
      throw invalidParameter(`Invalid user attributes: ${name}: Attribute cannot be deleted.`)
    }
  }
  if (othersChanged) patch.attributes = JSON.stringify(others)
  return patch
}

/** What the tokens say about the user. */
export function tokenSubject(user: PoolUser, groups: string[]): TokenSubject {
  return {
    sub: user.sub,
    username: user.username,
    email: user.email,
    emailVerified: user.email_verified === 1,
    phoneNumber: user.phone_number,
    phoneNumberVerified: user.phone_number_verified === 1,
    groups,
    attributes: storedAttributes(user),
  }
}

/** `h***@e***`: enough for the user to recognise the address, not enough to learn it. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@')
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`
}
