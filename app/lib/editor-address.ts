import type { Location } from 'react-router'

/**
 * An editor's first autosave creates the draft and moves the editor from `…/create` to the
 * draft's own `…/{id}/edit` address. The editor must stay mounted across that move: anything
 * typed while the draft was being created is still only in its state, and a fresh editor would
 * start from the server's copy and lose it. The move carries this state, and the page keys the
 * editor by `editorKey`, which stays the same for the move and changes for any other visit.
 */
const MOVED_AFTER_CREATE = { movedAfterCreate: true } as const

export function moveToCreatedDraft(
  navigate: (to: string, options: { replace: boolean; state: unknown }) => unknown,
  address: string,
): void {
  navigate(address, { replace: true, state: MOVED_AFTER_CREATE })
}

/** Whether a navigation is an editor's move to the draft it has just created. */
export function isMoveAfterCreate(location: Pick<Location, 'state'>): boolean {
  return (location.state as Partial<typeof MOVED_AFTER_CREATE> | null)?.movedAfterCreate === true
}

/** The key of a page's editor: the draft's id, except right after the editor created it. */
export function editorKey(location: Location, draftId: string | undefined): string {
  return isMoveAfterCreate(location) ? 'new' : (draftId ?? 'new')
}
