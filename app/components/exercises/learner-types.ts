import type { CourseAccess, CourseLevel } from '#db/schema.ts'
import type { CodeLanguage, CodeTest } from '#features/exercises/code-run.ts'
import type { QuestionKind } from '#features/exercises/question-input.ts'
import type { ExerciseStatus } from './exercise-status.tsx'

/** A question as a learner sees it before answering: never its answers or hidden tests. */
export type LearnerQuestion = {
  id: string
  kind: QuestionKind
  difficulty: CourseLevel
  access: CourseAccess
  tags: string[]
  status: ExerciseStatus
} & (
  | { locked: true }
  | ({ locked: false; promptHtml: string } & (
      | { kind: 'single' | 'multiple'; options: { id: string; text: string }[] }
      | { kind: 'text' }
      | {
          kind: 'code'
          language: CodeLanguage
          starterCode: string
          timeLimitMs: number
          /** The visible tests only. */
          tests: CodeTest[]
        }
    ))
)

/** The server's verdict on one answer, with what may be shown once answered. */
export type AnswerFeedback = {
  correct: boolean
  explanationHtml: string
  /** Choice questions: each chosen option, right or wrong; and how many correct ones were missed. */
  chosen?: { id: string; correct: boolean }[]
  missed?: number
}
