/**
 * The colour theme (docs/decisions/049): the learner's choice — the system's, light or dark —
 * kept in this browser's localStorage, and applied as `data-theme` on <html> by a small inline
 * script in <head>, which runs before the body is painted, so no page ever shows the wrong
 * theme first. With the system's choice it follows the system as it changes.
 */
export type ThemeChoice = 'system' | 'light' | 'dark'

export const THEME_STORAGE_KEY = 'theme'
/** Sent on window after the choice changes in this tab (other tabs hear `storage`). */
export const THEME_EVENT = 'themechoice'

/** The script's body: no outer references, so its source can be inlined as it is. */
function startTheme(key: string, eventName: string) {
  const root = document.documentElement
  const system = window.matchMedia('(prefers-color-scheme: dark)')
  const apply = () => {
    let stored: string | null = null
    try {
      stored = window.localStorage.getItem(key)
    } catch {
      // Storage refused (a private window's settings): the system's choice.
    }
    const choice = stored === 'light' || stored === 'dark' ? stored : 'system'
    root.dataset.themeChoice = choice
    root.dataset.theme = choice === 'system' ? (system.matches ? 'dark' : 'light') : choice
  }
  apply()
  system.addEventListener('change', apply)
  window.addEventListener(eventName, apply)
  window.addEventListener('storage', (event) => {
    if (event.key === key) apply()
  })
}

export const THEME_SCRIPT = `(${startTheme.toString()})(${JSON.stringify(THEME_STORAGE_KEY)},${JSON.stringify(THEME_EVENT)})`

/** The choice now in force (after hydration; the server does not know it). */
export function currentThemeChoice(): ThemeChoice {
  const choice = document.documentElement.dataset.themeChoice
  return choice === 'light' || choice === 'dark' ? choice : 'system'
}

/** Remembers the choice in this browser and applies it at once. */
export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY)
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice)
  } catch {
    // Storage refused: the choice cannot be kept, and the system's stays.
  }
  window.dispatchEvent(new Event(THEME_EVENT))
}
