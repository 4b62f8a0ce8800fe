import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'

/** A course's cover as cards and the course page show it: 16:9, or nothing when there is none. */
export function CoverImage({
  coverKey,
  className = '',
}: {
  coverKey: string | null
  className?: string
}) {
  const storage = useStorageSettings()
  if (!coverKey) return null
  return (
    <img
      src={publicObjectUrl(storage, coverKey)}
      alt=""
      loading="lazy"
      className={`aspect-video w-full rounded-lg bg-slate-100 object-cover dark:bg-slate-800 ${className}`}
    />
  )
}
