/**
 * Gathers the calls made in one turn of the event loop into one batch: `run` is given every item
 * asked for and answers the failures, by item; each caller's promise settles with its own item's
 * outcome (all fail if `run` throws). Content stores remove a round of items this way
 * (durable-removals.ts asks for them all at once): one message to a thread, or one request to
 * an S3 engine per thousand keys, instead of one call each.
 */
export function batchPerTurn<Item>(
  run: (items: Item[]) => Promise<Map<Item, Error>>,
): (item: Item) => Promise<void> {
  type Waiter = { item: Item; resolve: () => void; reject: (error: Error) => void }
  let gathering: Waiter[] | undefined

  const flush = () => {
    const waiters = gathering ?? []
    gathering = undefined
    run(waiters.map((waiter) => waiter.item)).then(
      (failures) => {
        for (const waiter of waiters) {
          const failure = failures.get(waiter.item)
          if (failure) waiter.reject(failure)
          else waiter.resolve()
        }
      },
      (error: Error) => {
        for (const waiter of waiters) waiter.reject(error)
      },
    )
  }

  return (item) =>
    new Promise((resolve, reject) => {
      if (!gathering) {
        gathering = []
        queueMicrotask(flush)
      }
      gathering.push({ item, resolve, reject })
    })
}
