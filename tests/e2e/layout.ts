import type { Page } from 'playwright-core'

/**
 * What the document scrolls beyond its layout: the height past the footer's bottom and the
 * width past the viewport, and the visually hidden elements that cause it — absolutely placed
 * boxes (Tailwind's sr-only) inside a scrolling or clipping box that is not their containing
 * block, so they sit where the scrolled content would be, outside it, stretching the page.
 */
export async function overflowPastLayout(page: Page): Promise<{
  height: number
  width: number
  escaped: string[]
}> {
  return page.evaluate(() => {
    const root = document.documentElement
    const footer = document.querySelector('footer')
    const layoutBottom = footer
      ? Math.ceil(footer.getBoundingClientRect().bottom + window.scrollY)
      : root.clientHeight
    const escaped: string[] = []
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      if (getComputedStyle(element).position !== 'absolute') continue
      const containingBlock = element.offsetParent
      for (let up = element.parentElement; up && up !== containingBlock; up = up.parentElement) {
        const style = getComputedStyle(up)
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
          const name = `${element.tagName.toLowerCase()}.${element.className}`
          escaped.push(
            `${name} 「${element.textContent?.trim()}」 in ${up.tagName.toLowerCase()}.${up.className}`,
          )
          break
        }
      }
    }
    return {
      height: Math.max(0, root.scrollHeight - Math.max(layoutBottom, root.clientHeight)),
      width: Math.max(0, root.scrollWidth - root.clientWidth),
      escaped: [...new Set(escaped)],
    }
  })
}
