import { describe, expect, it } from 'vitest'
import {
  attributeChanges,
  attributeDeletions,
  CUSTOM_ATTRIBUTES,
  maskEmail,
  newUserAttributes,
  storedAttributes,
} from './attributes.ts'

const user = { email: 'hana@example.com', phone_number: null, attributes: '{"name":"花子"}' }

describe('attributes', () => {
  it('takes a new user’s email (lowercased) and other standard attributes', () => {
    expect(
      newUserAttributes(
        [
          { Name: 'email', Value: 'Hana@Example.com' },
          { Name: 'locale', Value: 'ja' },
        ],
        { trusted: false },
      ),
    ).toEqual({
      email: 'hana@example.com',
      email_verified: 0,
      phone_number: null,
      phone_number_verified: 0,
      attributes: '{"locale":"ja"}',
    })
  })

  it('refuses custom attributes the pool does not declare, in Cognito’s words', () => {
    const plan = { Name: 'custom:plan', Value: 'premium' }
    expect(CUSTOM_ATTRIBUTES.has(plan.Name)).toBe(false)
    expect(() =>
      newUserAttributes([{ Name: 'email', Value: 'hana@example.com' }, plan], { trusted: true }),
    ).toThrow(
      'Attributes did not conform to the schema: Type for attribute {custom:plan} could not be determined',
    )
    expect(() => attributeChanges(user, [plan], { trusted: true })).toThrow(
      'Invalid user attributes: custom:plan: Attribute does not exist in the schema.',
    )
    expect(() => attributeDeletions(user, ['custom:plan'])).toThrow(
      'Invalid user attributes: custom:plan: Attribute does not exist in the schema.',
    )
  })

  it('requires an email and checks formats', () => {
    expect(() => newUserAttributes([], { trusted: false })).toThrow(
      /email: The attribute is required/,
    )
    expect(() =>
      newUserAttributes([{ Name: 'email', Value: 'not an email' }], { trusted: false }),
    ).toThrow('Invalid email address format.')
    expect(() =>
      attributeChanges(user, [{ Name: 'phone_number', Value: '090-1234' }], { trusted: false }),
    ).toThrow('Invalid phone number format.')
  })

  it('lets only trusted callers set what is verified, and nobody set sub', () => {
    const verified = [{ Name: 'email_verified', Value: 'true' }]
    expect(() => attributeChanges(user, verified, { trusted: false })).toThrow(/cannot be updated/)
    expect(attributeChanges(user, verified, { trusted: true }).patch).toEqual({ email_verified: 1 })
    expect(() => attributeChanges(user, [{ Name: 'sub', Value: 'x' }], { trusted: true })).toThrow()
    expect(() =>
      attributeChanges(user, [{ Name: 'cognito:groups', Value: 'admin' }], { trusted: true }),
    ).toThrow()
  })

  it('marks a changed email unverified, and an unchanged one untouched', () => {
    expect(
      attributeChanges(user, [{ Name: 'email', Value: 'new@example.com' }], { trusted: false }),
    ).toEqual({
      patch: { email: 'new@example.com', email_verified: 0 },
      emailChanged: true,
    })
    expect(
      attributeChanges(user, [{ Name: 'email', Value: 'HANA@example.com' }], { trusted: false }),
    ).toEqual({
      patch: {},
      emailChanged: false,
    })
  })

  it('deletes optional attributes but not the email', () => {
    expect(attributeDeletions(user, ['name'])).toEqual({ attributes: '{}' })
    expect(() => attributeDeletions(user, ['email'])).toThrow(/required/)
    expect(storedAttributes({ attributes: 'not json' })).toEqual({})
  })

  it('masks addresses', () => {
    expect(maskEmail('hana@example.com')).toBe('h***@e***')
  })
})
