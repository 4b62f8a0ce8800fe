import { describe, expect, it } from 'vitest'
import { cardBrand, cardFields, luhnValid } from './card.ts'
import { consumptionTax, formatYen, periodEnd, planPrice } from './plan-catalogue.ts'

const NOW = Date.UTC(2026, 10, 25)
const valid = {
  number: '4242 4242 4242 4242',
  expMonth: '12',
  expYear: '2030',
  cvc: '123',
  name: 'HANA',
}

describe('the card form', () => {
  it('checks the Luhn digit and names the brand', () => {
    expect(luhnValid('4242424242424242')).toBe(true)
    expect(luhnValid('4242424242424241')).toBe(false)
    expect(cardBrand('4242424242424242')).toBe('visa')
    expect(cardBrand('5555555555554444')).toBe('mastercard')
    expect(cardBrand('3566002020360505')).toBe('jcb')
    expect(cardBrand('378282246310005')).toBe('amex')
  })

  it('accepts a good card with spaces, as digits', () => {
    expect(cardFields(NOW).parse(valid)).toMatchObject({ number: '4242424242424242', expMonth: 12 })
  })

  it.each([
    [{ number: '4242 4242 4242 4241' }, 'number', 'カード番号が正しくありません'],
    [{ expMonth: '10', expYear: '2026' }, 'expMonth', '有効期限が切れています'],
    [{ cvc: '12' }, 'cvc', '3 桁'],
    [{ number: '378282246310005', cvc: '123' }, 'cvc', '4 桁'],
    [{ name: ' ' }, 'name', 'カード名義を入力してください'],
  ])('refuses %o on %s', (change, field, message) => {
    const result = cardFields(NOW).safeParse({ ...valid, ...change })
    expect(result.success).toBe(false)
    const issue = result.error?.issues.find((candidate) => candidate.path[0] === field)
    expect(issue?.message).toContain(message)
  })
})

describe('prices and periods', () => {
  it('adds 10 % consumption tax, rounded down', () => {
    expect(consumptionTax(980)).toBe(98)
    expect(consumptionTax(1234)).toBe(123)
    expect(planPrice('premium-yearly', 9800)).toMatchObject({ interval: 'year', totalYen: 10_780 })
    expect(formatYen(10_780)).toBe('10,780円')
  })

  it('ends a month later in Japan, clamped to the month’s last day', () => {
    // Jan 31 10:00 JST → Feb 28 10:00 JST.
    expect(periodEnd(Date.UTC(2027, 0, 31, 1), 'month')).toBe(Date.UTC(2027, 1, 28, 1))
    // Dec 31 23:30 JST (14:30 UTC) → Jan 31 23:30 JST.
    expect(periodEnd(Date.UTC(2026, 11, 31, 14, 30), 'month')).toBe(Date.UTC(2027, 0, 31, 14, 30))
    expect(periodEnd(Date.UTC(2028, 1, 29, 1), 'year')).toBe(Date.UTC(2029, 1, 28, 1))
  })
})
