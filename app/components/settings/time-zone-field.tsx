import { useState } from 'react'
import { FieldError } from '#app/components/forms.tsx'
import { COMMON_TIME_ZONES } from '#features/users/profile-input.ts'

const COMMON_ZONE_NAMES = new Set(COMMON_TIME_ZONES.map(({ zone }) => zone))

/**
 * The zone /histories counts days in: a select with the common zones first (Japanese names,
 * Tokyo at the top), then every other IANA zone, and a box that narrows the list as one types
 * (by IANA name or Japanese name). The chosen zone always stays in the list, so narrowing never
 * changes what is saved. Without JavaScript the full select still works.
 */
export function TimeZoneField(props: {
  id: string
  timeZones: readonly string[]
  defaultValue: string
  error?: string
  controlClass: string
}) {
  const { id, controlClass } = props
  const [zone, setZone] = useState(props.defaultValue)
  const [query, setQuery] = useState('')
  const needle = query.trim().toLowerCase()
  const shown = (name: string, label = '') =>
    name === zone || !needle || name.toLowerCase().includes(needle) || label.includes(needle)
  const common = COMMON_TIME_ZONES.filter(({ zone: name, label }) => shown(name, label))
  const others = props.timeZones.filter((name) => !COMMON_ZONE_NAMES.has(name) && shown(name))
  const found =
    common.filter(({ zone: name }) => name !== zone).length +
    others.filter((name) => name !== zone).length
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-zone`} className="text-sm font-semibold">
        タイムゾーン
      </label>
      <p id={`${id}-zone-hint`} className="text-xs text-slate-600 dark:text-slate-400">
        学習履歴の日付と連続学習日数は、このタイムゾーンの 0 時で区切ります。
      </p>
      <input
        type="search"
        aria-label="タイムゾーンを検索"
        placeholder="検索（例: 東京、Sao_Paulo）"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        autoComplete="off"
        spellCheck={false}
        className={controlClass}
      />
      {/* Always in the page, so screen readers announce the count as it changes. */}
      <p role="status" className="text-xs text-slate-600 empty:hidden dark:text-slate-400">
        {needle && (found === 0 ? '一致するタイムゾーンはありません' : `${found} 件見つかりました`)}
      </p>
      <select
        id={`${id}-zone`}
        name="timeZone"
        value={zone}
        onChange={(event) => setZone(event.currentTarget.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${id}-zone-hint ${id}-zone-error`}
        className={controlClass}
      >
        {common.length > 0 && (
          <optgroup label="よく使うタイムゾーン">
            {common.map(({ zone: name, label }) => (
              <option key={name} value={name}>
                {`${label} ${name}`}
              </option>
            ))}
          </optgroup>
        )}
        {others.length > 0 && (
          <optgroup label="すべてのタイムゾーン">
            {others.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      <FieldError id={`${id}-zone-error`} error={props.error} />
    </div>
  )
}
