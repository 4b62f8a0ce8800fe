import axe from 'axe-core'
import type { Page } from 'playwright-core'

/** The two sizes the site is checked at: a laptop and a phone. */
export const SCREENS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
] as const

/**
 * Only colours change with the theme (`prefers-color-scheme`, Tailwind's dark variant): the
 * markup is the same, so the dark pass runs the rules that read colours and the light pass
 * runs them all.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block']

/**
 * axe-core's violations on the page as it is, one line each: rule, element and what to fix.
 * Every rule axe enables by default runs (WCAG A/AA and best practices such as heading-order
 * and landmark-unique) unless `rules` narrows them. axe is injected through the DevTools
 * protocol, so the site's CSP stays on; once per document (a reload or a new page needs it
 * again, which `axeViolations` notices).
 */
export async function axeViolations(page: Page, rules?: string[]): Promise<string[]> {
  const injected = await page.evaluate(() => 'axe' in window)
  if (!injected) await page.evaluate(axe.source)
  return page.evaluate(async (only) => {
    const { axe } = window as unknown as { axe: typeof import('axe-core') }
    const results = await axe.run(document, {
      resultTypes: ['violations'],
      ...(only && { runOnly: { type: 'rule', values: only } }),
    })
    return results.violations.flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}) ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
      ),
    )
  }, rules)
}

/**
 * Emulates the system's colour scheme and waits for the page to follow it: the theme script
 * (app/lib/theme.ts) hears the change as an event, after this call returns.
 */
export async function colourScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme })
  await page.waitForFunction((wanted) => {
    const { theme, themeChoice } = document.documentElement.dataset
    return theme === undefined || themeChoice !== 'system' || theme === wanted
  }, scheme)
}

/**
 * The violations in each theme at the page's current size, prefixed with the theme. The theme
 * switches without a reload; transitions are cut so colours are final when axe reads them.
 */
export async function axeViolationsInBothThemes(page: Page): Promise<string[]> {
  await page.addStyleTag({
    content: '*,*::before,*::after{transition:none!important;animation:none!important}',
  })
  await colourScheme(page, 'light')
  const light = await axeViolations(page)
  await colourScheme(page, 'dark')
  const dark = await axeViolations(page, COLOUR_RULES)
  await colourScheme(page, 'light')
  return [...light.map((line) => `[light] ${line}`), ...dark.map((line) => `[dark] ${line}`)]
}

/** axe at both screen sizes in both themes: each violation as a line naming page and screen. */
export async function axeAtBothSizes(page: Page): Promise<string[]> {
  const failures: string[] = []
  for (const screen of SCREENS) {
    await page.setViewportSize(screen)
    for (const line of await axeViolationsInBothThemes(page)) {
      failures.push(`${page.url()} [${screen.name}]${line}`)
    }
  }
  return failures
}
