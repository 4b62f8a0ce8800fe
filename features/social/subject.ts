import { z } from 'zod'

/** What can be liked and commented on, as /api paths name it: `/{kind}/{id}`. */
export const subjectKindSchema = z.enum(['course', 'study', 'lab', 'lab_story'], {
  error: '種類は course, study, lab, lab_story のいずれかで指定してください',
})

export const subjectSchema = z.object({
  kind: subjectKindSchema,
  id: z.string().min(1).max(64),
})
