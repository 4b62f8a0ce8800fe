/**
 * Zod compiles object parsers with `new Function` when it may, and its probe for that is itself
 * a `new Function` call, which the pages' policy (no 'unsafe-eval', decision 020) reports as a
 * violation. In the browser it parses without compiling (`jitless`); the server keeps the faster
 * compiled parsers. Zod reads its settings from this global (`z.config` writes the same object),
 * and only on the first parse, so setting it here, from the root route, comes early enough.
 */
type ZodGlobal = { __zod_globalConfig?: { jitless?: boolean } }

if (typeof document !== 'undefined') {
  // The same object zod holds if it is loaded already: changed in place, not replaced.
  const zod = globalThis as ZodGlobal
  zod.__zod_globalConfig ??= {}
  zod.__zod_globalConfig.jitless = true
}
