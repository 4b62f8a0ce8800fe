import { Monitor, Moon, Sun } from 'lucide-react'
import { useEffect, useState } from 'react'
import { chooseTheme, currentThemeChoice, type ThemeChoice } from '#app/lib/theme.ts'

const CHOICES: { value: ThemeChoice; label: string; Icon: typeof Sun }[] = [
  { value: 'system', label: '端末に合わせる', Icon: Monitor },
  { value: 'light', label: 'ライト', Icon: Sun },
  { value: 'dark', label: 'ダーク', Icon: Moon },
]

/**
 * The theme choice (system, light, dark) as three radio buttons, remembered in this browser.
 * The server cannot know the choice: the system's is shown until hydration reads it.
 */
export function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>('system')
  useEffect(() => setChoice(currentThemeChoice()), [])
  return (
    <fieldset className="flex items-center gap-2" data-theme-toggle>
      <legend className="sr-only">画面のテーマ</legend>
      <span aria-hidden="true">テーマ</span>
      <span className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-600">
        {CHOICES.map(({ value, label, Icon }) => (
          <label
            key={value}
            title={label}
            className="relative inline-flex size-9 cursor-pointer items-center justify-center rounded-md text-slate-700 has-checked:bg-slate-200 has-checked:text-slate-900 has-focus-visible:outline-3 has-focus-visible:outline-brand-500 dark:text-slate-300 dark:has-checked:bg-slate-700 dark:has-checked:text-white"
          >
            <input
              type="radio"
              name="theme"
              value={value}
              checked={choice === value}
              onChange={() => {
                setChoice(value)
                chooseTheme(value)
              }}
              className="sr-only"
            />
            <Icon aria-hidden="true" className="size-4" />
            <span className="sr-only">{label}</span>
          </label>
        ))}
      </span>
    </fieldset>
  )
}
