import type { DatabaseSettings } from '#db/database.ts'
import { openDatabase } from '#db/database.ts'
import type { CourseCard } from '#features/courses/course-card.ts'
import { listNewestWriting } from '#features/home/newest-writing.server.ts'
import type { Page } from '#features/pagination.ts'
import type { PublicSettings } from '#server/config.ts'
import { type BaselineInput, readShell } from './baseline.ts'
import { fetchOk } from './measure.ts'

/**
 * What the baseline server renders, read once from a running app: its API's bodies, the pages'
 * shells, and (having no API of that shape) the home page's newest stories and studies, read
 * from the app's database as its loader reads them.
 */
export async function readBaselineInput(
  appUrl: string,
  settings: PublicSettings,
  database: DatabaseSettings,
): Promise<BaselineInput> {
  const json = async <T>(pathname: string) =>
    JSON.parse((await fetchOk(`${appUrl}${pathname}`)).text) as T
  const opened = openDatabase(database)
  const [stories, studies] = await Promise.all([
    listNewestWriting(opened.db, 'lab_story'),
    listNewestWriting(opened.db, 'study'),
  ]).finally(() => opened.close())
  return {
    settings,
    courses: await json<unknown>('/api/courses'),
    featured: (await json<Page<CourseCard>>('/api/courses?limit=6')).items,
    stories,
    studies,
    firstPage: await json<Page<CourseCard>>('/api/courses?limit=12'),
    shells: {
      home: readShell((await fetchOk(`${appUrl}/`)).text),
      catalogue: readShell((await fetchOk(`${appUrl}/courses`)).text),
    },
  }
}
