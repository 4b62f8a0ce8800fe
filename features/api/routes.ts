import { courseRoutes } from './courses.ts'
import { labRoutes, labStoryRoutes, studyRoutes } from './editable.ts'
import { exampleRoutes } from './example.ts'
import { exerciseRoutes } from './exercises.ts'
import { messageRoutes } from './messages.ts'
import { moderationRoutes } from './moderation.ts'
import { peopleRoutes } from './people.ts'
import { socialRoutes } from './social.ts'
import { uploadRoutes } from './uploads.ts'

/** Every /api route's contract (server/api registers each; openapi.test.ts checks none is missed). */
export const apiRoutes = {
  courses: courseRoutes,
  studies: studyRoutes,
  exercises: exerciseRoutes,
  labs: labRoutes,
  labStories: labStoryRoutes,
  social: socialRoutes,
  people: peopleRoutes,
  messages: messageRoutes,
  moderation: moderationRoutes,
  example: exampleRoutes,
  uploads: uploadRoutes,
}
