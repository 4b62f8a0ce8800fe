// Temporary mirror of i16-model's features/exercises/question-views.ts until that branch is merged.
import type { CourseAccess, CourseLevel } from '#db/schema.ts'
import type { CodeLanguage } from '#features/exercises/code-run.ts'
import type { QuestionKind } from '#features/exercises/question-input.ts'

export type QuestionStatus = 'not_started' | 'attempted' | 'solved'
type VisibleTest = { name: string; stdin: string; expectedOutput: string }
export type LearnerContent =
  | { kind: 'single' | 'multiple'; options: { id: string; text: string }[] }
  | { kind: 'text' }
  | {
      kind: 'code'
      language: CodeLanguage
      starterCode: string
      timeLimitMs: number
      visibleTests: VisibleTest[]
      hiddenTestCount: number
    }
export type LearnerQuestion = {
  id: string
  position: number
  kind: QuestionKind
  language: CodeLanguage | null
  difficulty: CourseLevel
  access: CourseAccess
  tags: string[]
  revision: number
  locked: boolean
  promptHtml: string | null
  content: LearnerContent | null
  status: QuestionStatus
  explanationHtml: string | null
}
export type TestReport = {
  name: string
  hidden: boolean
  passed: boolean
  outcome: 'completed' | 'error' | 'timeout' | 'output-limit' | 'skipped'
  stdout: string | null
  stderr: string | null
  error: { message: string; line?: number } | null
  message: string | null
  durationMs: number
}
export type AnswerFeedback =
  | { kind: 'single'; chosenWrong: boolean }
  | { kind: 'multiple'; wrongOptionIds: string[]; missingCorrect: number }
  | { kind: 'text' }
  | { kind: 'code'; tests: TestReport[] }
export type AnswerResult = {
  attemptId: string
  verdict: 'correct' | 'incorrect'
  message: string
  feedback: AnswerFeedback
  status: QuestionStatus
  firstSolve: boolean
  explanationHtml: string
}
export type AuthorContent =
  | { kind: 'single' | 'multiple'; options: { id: string; text: string; correct: boolean }[] }
  | { kind: 'text'; acceptedAnswers: string[]; pattern: string | null }
  | {
      kind: 'code'
      language: CodeLanguage
      starterCode: string
      referenceSolution: string
      tests: (VisibleTest & { hidden: boolean })[]
      timeLimitMs: number
    }
export type AuthorQuestion = {
  id: string
  position: number
  revision: number
  prompt: string
  explanation: string
  difficulty: CourseLevel
  access: CourseAccess
  tags: string[]
  content: AuthorContent
}
