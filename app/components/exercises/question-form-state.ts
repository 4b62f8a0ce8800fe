import type { z } from 'zod'
import { tagsFromText } from '#app/components/courses/course-editor.tsx'
import type { CodeLanguage } from '#features/exercises/code-run.ts'
import { DEFAULT_TIME_LIMIT_MS } from '#features/exercises/code-run.ts'
import type { QuestionKind, questionFields } from '#features/exercises/question-input.ts'
import type { AuthorQuestion } from './learner-types.ts'

/** What an author sends for a question (the schema's input side). */
export type QuestionPayload = z.input<typeof questionFields>
type Stored = z.output<typeof questionFields>

export type OptionState = { id: string; text: string; correct: boolean }
export type TestState = {
  /** The editor's own key for the list (tests have no id); never sent. */
  key: string
  name: string
  stdin: string
  expectedOutput: string
  hidden: boolean
}

/**
 * The question editor's state: the common fields and every kind's own part at once, so that
 * switching the kind back and forth while writing loses nothing; `payloadOf` sends the chosen
 * kind's part only.
 */
export type QuestionFormState = {
  kind: QuestionKind
  prompt: string
  explanation: string
  difficulty: Stored['difficulty']
  access: Stored['access']
  /** As typed: separated by commas. */
  tagsText: string
  options: OptionState[]
  acceptedAnswers: string[]
  /** Empty: no regular expression. */
  pattern: string
  language: CodeLanguage
  starterCode: string
  referenceSolution: string
  tests: TestState[]
  timeLimitMs: number
}

let nextId = 0
/** An option id (or a test's list key) unique within the editor's lifetime; the server checks option ids per question. */
export function newOptionId(): string {
  nextId += 1
  return `o${Date.now().toString(36)}-${nextId}`
}

export function blankTest(index: number): TestState {
  return {
    key: newOptionId(),
    name: `テスト ${index + 1}`,
    stdin: '',
    expectedOutput: '',
    hidden: false,
  }
}

/** The editor's state of a stored question, or of a new one of `kind`. */
export function formStateOf(
  question: Omit<AuthorQuestion, 'id' | 'position' | 'revision'> | null,
  kind: QuestionKind = 'single',
): QuestionFormState {
  const state: QuestionFormState = {
    kind: question?.content.kind ?? kind,
    prompt: question?.prompt ?? '',
    explanation: question?.explanation ?? '',
    difficulty: question?.difficulty ?? 'beginner',
    access: question?.access ?? 'free',
    tagsText: question?.tags.join(', ') ?? '',
    options: [
      { id: newOptionId(), text: '', correct: true },
      { id: newOptionId(), text: '', correct: false },
    ],
    acceptedAnswers: [''],
    pattern: '',
    language: 'javascript',
    starterCode: '',
    referenceSolution: '',
    tests: [blankTest(0)],
    timeLimitMs: DEFAULT_TIME_LIMIT_MS,
  }
  if (!question) return state
  const content = question.content
  switch (content.kind) {
    case 'single':
    case 'multiple':
      return { ...state, options: content.options.map((option) => ({ ...option })) }
    case 'text':
      return {
        ...state,
        acceptedAnswers: content.acceptedAnswers.length > 0 ? [...content.acceptedAnswers] : [''],
        pattern: content.pattern ?? '',
      }
    case 'code':
      return {
        ...state,
        language: content.language,
        starterCode: content.starterCode,
        referenceSolution: content.referenceSolution,
        tests: content.tests.map((test) => ({ ...test, key: newOptionId() })),
        timeLimitMs: content.timeLimitMs,
      }
  }
}

/** What the server receives: the common fields and the chosen kind's part. */
export function payloadOf(state: QuestionFormState): QuestionPayload {
  const common = {
    prompt: state.prompt,
    explanation: state.explanation,
    difficulty: state.difficulty,
    access: state.access,
    tags: tagsFromText(state.tagsText),
  }
  switch (state.kind) {
    case 'single':
    case 'multiple':
      return { ...common, kind: state.kind, options: state.options }
    case 'text':
      return {
        ...common,
        kind: 'text',
        acceptedAnswers: state.acceptedAnswers.filter((answer) => answer.trim() !== ''),
        pattern: state.pattern.trim() === '' ? null : state.pattern,
      }
    case 'code':
      return {
        ...common,
        kind: 'code',
        language: state.language,
        starterCode: state.starterCode,
        referenceSolution: state.referenceSolution,
        tests: state.tests.map(({ key: _key, ...test }) => test),
        timeLimitMs: state.timeLimitMs,
      }
  }
}

/** `list` with the item at `index` moved one place up (-1) or down (+1). */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by
  if (target < 0 || target >= list.length) return [...list]
  const next = [...list]
  const [item] = next.splice(index, 1)
  next.splice(target, 0, item as T)
  return next
}

export { KIND_LABELS, LANGUAGE_LABELS } from './labels.ts'
