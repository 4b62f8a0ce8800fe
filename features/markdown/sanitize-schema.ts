import { defaultSchema, type Options as Schema } from 'rehype-sanitize'

/**
 * GitHub's sanitising rules (rehype-sanitize's default) narrowed to our URL policy: links may
 * be http(s), mailto or relative; images http(s) or relative (plain http images are dropped
 * later by `urls.ts`, since the protocol list cannot tell https from http). Everything else:
 * no script, style, iframe, form, event handler or `style` attribute survives.
 */
/** GitHub's prefix for authored ids and names, so they cannot clobber DOM globals. */
export const CLOBBER_PREFIX = 'user-content-'

export const sanitizeSchema: Schema = {
  ...defaultSchema,
  clobberPrefix: CLOBBER_PREFIX,
  protocols: {
    ...defaultSchema.protocols,
    href: ['http', 'https', 'mailto'],
    src: ['http', 'https'],
    cite: ['http', 'https'],
    longDesc: ['http', 'https'],
  },
}
