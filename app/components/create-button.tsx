import { Plus } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { useCurrentUser } from '#app/lib/root-data.ts'
import { CREATABLE, type CreatableKind, createPath } from './navigation.ts'

/**
 * The button to a kind's create page for the signed-in viewer, or nothing for guests (their
 * pages are cached and shared, so they carry no per-viewer control). `owner` limits it to
 * that user's own pages, such as their profile's tabs.
 */
export function CreateButton({ kind, owner }: { kind: CreatableKind; owner?: string }) {
  const user = useCurrentUser()
  if (!user || (owner !== undefined && owner !== user.username)) return null
  return (
    <Link
      to={createPath(user.username, kind)}
      className="inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
    >
      <Plus aria-hidden="true" className="size-4" />
      {CREATABLE[kind].action}
    </Link>
  )
}

/** A list's heading with the create button of its kind beside it. */
export function HeadingWithCreate(props: {
  kind: CreatableKind
  owner?: string
  children: ReactNode
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      {props.children}
      <CreateButton kind={props.kind} owner={props.owner} />
    </div>
  )
}
