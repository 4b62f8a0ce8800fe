// Runs inside a runner Worker (javascript.worker.ts, python.worker.ts) before any code that is
// not ours: the author's starter code and tests run in every learner's browser, and /example
// runs them for guests (docs/decisions/032). The worker's own response carries a strict CSP (no
// network but Pyodide's files, no other scripts, no nested workers: server/content-security-
// policy.ts); this removes, besides, what a same-origin worker could still reach of the site.

/** Globals of a worker that reach the network, the site's storage or other contexts. */
const GLOBALS = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'WebTransport',
  'EventSource',
  'importScripts',
  'Worker',
  'SharedWorker',
  'indexedDB',
  'caches',
  'cookieStore',
  'BroadcastChannel',
  // Shown as the site, if the learner once allowed the site's notifications.
  'Notification',
  'webkitRequestFileSystem',
  'webkitRequestFileSystemSync',
  'webkitResolveLocalFileSystemURL',
  'postMessage',
] as const

/** WorkerNavigator getters to the origin's storage (OPFS), locks and service workers. */
const NAVIGATOR = ['storage', 'locks', 'serviceWorker', 'permissions'] as const

type Post = (message: unknown) => void

/**
 * Takes the worker's line to the page for the runner alone, then deletes every global in
 * GLOBALS (a worker's global scope holds them as its own properties; they are deleted from its
 * prototypes too, should an engine keep one there) and the navigator's storage getters. Returns
 * `postMessage`, bound, for the runner to answer with.
 */
export function lockDown(scope: typeof globalThis = globalThis): Post {
  const post = (scope as unknown as { postMessage: Post }).postMessage.bind(scope)
  for (const name of GLOBALS) {
    for (let holder: object | null = scope; holder && holder !== Object.prototype; ) {
      Reflect.deleteProperty(holder, name)
      holder = Object.getPrototypeOf(holder) as object | null
    }
  }
  const navigatorPrototype =
    'navigator' in scope ? (Object.getPrototypeOf(scope.navigator) as object) : undefined
  for (const name of NAVIGATOR) {
    if (navigatorPrototype) Reflect.deleteProperty(navigatorPrototype, name)
  }
  return post
}
