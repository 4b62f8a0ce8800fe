/** Who asks a content feature to do something: a signed-in user, with admin rights or not. */
export type Actor = { userId: string; isAdmin: boolean }

/** The actor behind a signed-in session (`sub` is the user's id; see features/users). */
export function actorOf(user: { sub: string; groups: string[] } | undefined): Actor | undefined {
  return user && { userId: user.sub, isAdmin: user.groups.includes('admin') }
}

/** Only the owner, or an admin, may edit, publish, unpublish or delete an item. */
export function mayEdit(actor: Actor | undefined, ownerId: string): boolean {
  return actor !== undefined && (actor.isAdmin || actor.userId === ownerId)
}
