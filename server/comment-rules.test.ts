import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

/**
 * Comments and test names say why in words that outlive the tracker: an issue number means
 * nothing to someone reading the code without the tracker (decision records say where each
 * decision came from).
 */
describe('comment rules', () => {
  it('no source cites an issue number', () => {
    let found = ''
    try {
      found = execFileSync(
        'git',
        ['grep', '-nIE', '[Ii]ssues? #?[0-9]+', '--', '*.ts', '*.tsx', '*.py', '*.css'],
        { encoding: 'utf8' },
      )
    } catch (error) {
      // git grep exits 1 when nothing matches.
      if ((error as { status?: number }).status !== 1) throw error
    }
    const offenders = found
      .split('\n')
      .filter(Boolean)
      .filter((line) => !line.startsWith('server/comment-rules.test.ts:'))
    expect(offenders).toEqual([])
  })
})
