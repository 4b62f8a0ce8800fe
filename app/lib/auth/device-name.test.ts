import { describe, expect, it } from 'vitest'
import { friendlyDeviceName } from './device-name.ts'

describe('friendlyDeviceName', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
      'Chrome / Linux',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0',
      'Edge / Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari / macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari / iPhone',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/142.0 Mobile/15E148 Safari/604.1',
      'Chrome / iPhone',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      'Samsung Internet / Android',
    ],
    [
      'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Firefox / Linux',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36',
      'Chrome / Linux',
    ],
    [
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
      'Chrome / ChromeOS',
    ],
    // Client hints, as Amplify writes them for Chromium browsers.
    [
      'Windows 15.0.0 x86 Windows Not)A;Brand/99.0.0.0;Google Chrome/127.0.6533.72;Chromium/127.0.6533.72',
      'Chrome / Windows',
    ],
    [
      'macOS 15.1.0 arm macOS Microsoft Edge/131.0.2903.51;Not?A_Brand/8.0.0.0;Chromium/131.0.6778.70',
      'Edge / macOS',
    ],
    ['Linux x86 Linux Not:A-Brand/8.0.0.0;Chromium/156.0.8078.108', 'Chromium / Linux'],
    [
      'Android 14.0.0 Pixel 8 Android Google Chrome/131.0.6778.81;Chromium/131.0.6778.81',
      'Chrome / Android',
    ],
  ])('names %s', (userAgent, name) => {
    expect(friendlyDeviceName(userAgent)).toBe(name)
  })

  it('keeps a name that is not a user agent, and one it cannot read', () => {
    expect(friendlyDeviceName('phone')).toBe('phone')
    expect(friendlyDeviceName('Linux desktop')).toBe('Linux desktop')
    expect(friendlyDeviceName('Mozilla/5.0 (compatible; Unknown)')).toBe(
      'Mozilla/5.0 (compatible; Unknown)',
    )
  })
})
