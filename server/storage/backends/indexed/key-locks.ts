/**
 * Serialises work per name within this process: the next holder starts when the previous one
 * finished, whether it succeeded or failed. Several processes sharing one store would need a
 * lock in the database instead (docs/decisions/010).
 */
export type KeyLocks = <T>(name: string, work: () => Promise<T>) => Promise<T>

export function createKeyLocks(): KeyLocks {
  const tails = new Map<string, Promise<void>>()
  return async (name, work) => {
    const previous = tails.get(name) ?? Promise.resolve()
    let release = () => {}
    const mine = new Promise<void>((resolve) => {
      release = resolve
    })
    const tail = previous.then(() => mine)
    tails.set(name, tail)
    await previous
    try {
      return await work()
    } finally {
      release()
      if (tails.get(name) === tail) tails.delete(name)
    }
  }
}
