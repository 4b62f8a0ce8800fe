/**
 * Bytes on the wire per page: the HTML and the first-load JavaScript and CSS a guest's
 * browser fetches, as sent to a client that accepts brotli, to one that accepts gzip, and
 * uncompressed (the baseline: what every page cost before compression).
 */
import { type Coding, firstLoadAssets, sentBytes, sentTotal } from '#tests/support/first-load.ts'
import { formatBytes, printTable } from './measure.ts'

const CODINGS: Coding[] = ['identity', 'gzip', 'br']

/** Measures each page and prints the table; answers the rows for callers that check budgets. */
export async function reportBytesOnTheWire(origin: string, paths: string[]) {
  const rows: { path: string; [key: string]: number | string }[] = []
  for (const path of paths) {
    const html = await sentBytes(`${origin}${path}`, 'identity')
    const assets = firstLoadAssets(html.body)
    const row: { path: string; [key: string]: number | string } = { path }
    for (const coding of CODINGS) {
      row[`html ${coding}`] = (await sentBytes(`${origin}${path}`, coding)).bytes
      row[`js ${coding}`] = await sentTotal(origin, assets.scripts, coding)
      row[`css ${coding}`] = await sentTotal(origin, assets.styles, coding)
    }
    rows.push(row)
  }
  const columns = CODINGS.flatMap((coding) => [`html ${coding}`, `js ${coding}`, `css ${coding}`])
  printTable(
    ['bytes on the wire (first load)', ...columns, 'total br / identity'],
    rows.map((row) => {
      const sum = (coding: Coding) =>
        ['html', 'js', 'css'].reduce((acc, kind) => acc + Number(row[`${kind} ${coding}`]), 0)
      return [
        row.path,
        ...columns.map((column) => formatBytes(Number(row[column]))),
        (sum('br') / sum('identity')).toFixed(2),
      ]
    }),
  )
  console.log(
    '\nidentity = what a client that accepts no coding receives (the baseline: every answer ' +
      'before compression); js = <script src> and modulepreload of the page; css = its style sheets.',
  )
  return rows
}
