/**
 * A remembered device's name as people know it ("Chrome / Linux"). Amplify names a device
 * when it confirms it: from the browser's client hints where there are some (`platform
 * version architecture model platform brand/version;brand/version…`, Chromium browsers), else
 * the whole user-agent string. This reads the browser and the system out of either; a name it
 * cannot read (one given through the API, say) stays as it is.
 */
export function friendlyDeviceName(name: string): string {
  return fromClientHints(name) ?? fromUserAgent(name) ?? name
}

const HINT_PLATFORMS: Record<string, string> = {
  Windows: 'Windows',
  macOS: 'macOS',
  Linux: 'Linux',
  Android: 'Android',
  'Chrome OS': 'ChromeOS',
  ChromeOS: 'ChromeOS',
  iOS: 'iOS',
}

// Checked in order: every Chromium browser also lists "Chromium" (and a made-up "Not A Brand",
// whose name may itself hold a `;`, so the list is searched rather than split).
const HINT_BRANDS: [string, string][] = [
  ['Microsoft Edge', 'Edge'],
  ['Opera', 'Opera'],
  ['Samsung Internet', 'Samsung Internet'],
  ['Brave', 'Brave'],
  ['Google Chrome', 'Chrome'],
  ['Chromium', 'Chromium'],
]

function fromClientHints(name: string): string | undefined {
  const platform = Object.keys(HINT_PLATFORMS).find((p) => name.startsWith(`${p} `))
  if (!platform) return undefined
  // The platform is written twice; the brands follow its second mention.
  const at = name.indexOf(` ${platform} `, platform.length - 1)
  if (at < 0) return undefined
  const brands = name.slice(at + platform.length + 2)
  const brand = HINT_BRANDS.find(([hint]) => brands.includes(`${hint}/`))?.[1]
  return brand && `${brand} / ${HINT_PLATFORMS[platform]}`
}

function fromUserAgent(name: string): string | undefined {
  if (!name.startsWith('Mozilla/')) return undefined
  const browser = UA_BROWSERS.find(([pattern]) => pattern.test(name))?.[1]
  const system = UA_SYSTEMS.find(([pattern]) => pattern.test(name))?.[1]
  if (!browser || !system) return undefined
  return `${browser} / ${system}`
}

// In order: most browsers also claim to be Chrome and Safari, so the specific ones first.
const UA_BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(Headless)?Chrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
]

const UA_SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]
