import { Lock } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { Link } from 'react-router'
import { MarkdownView } from '#app/components/markdown-view.tsx'
import { LEVEL_LABELS } from '#features/courses/course-card.ts'
import type { AnswerInput } from '#features/exercises/question-input.ts'
import { MAX_TEXT_ANSWER_LENGTH } from '#features/exercises/question-limits.ts'
import { type ExerciseStatus, StatusBadge } from './exercise-status.tsx'
import { answerInputClass, KIND_LABELS, LANGUAGE_LABELS } from './labels.ts'
import type { AnswerResult, LearnerContent, LearnerQuestion } from './learner-types.ts'

/** What the card shows of a graded answer (a study's answers also carry their attempt; /example's do not). */
type Graded = Omit<AnswerResult, 'attemptId' | 'firstSolve'>
export type Submit = (answer: AnswerInput) => Promise<Graded>

export type { Submit as SubmitAnswer }

type CodeContent = Extract<LearnerContent, { kind: 'code' }>

const primaryButton =
  'rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50'

/**
 * One question to answer: its prompt, the kind's input, and the server's verdict with the
 * explanation; answering again is always allowed. A locked (premium) question shows its lock
 * and the way to the plans instead of a body, which the server did not send.
 */
export function QuestionAnswer(props: {
  number: number
  question: LearnerQuestion
  submit: Submit
  /** The code question's editor and run panel; it posts through `submit` too. */
  codePanel?(question: LearnerQuestion, content: CodeContent, submit: Submit): ReactNode
}) {
  const { question, number } = props
  const { content } = question
  const headingId = useId()
  const [status, setStatus] = useState<ExerciseStatus>(question.status)
  const [result, setResult] = useState<Graded | undefined>()
  const [problem, setProblem] = useState<string | undefined>()

  const submit: Submit = async (answer) => {
    setProblem(undefined)
    try {
      const answered = await props.submit(answer)
      setResult(answered)
      setStatus(answered.status)
      return answered
    } catch (error) {
      setProblem(error instanceof Error ? error.message : '送信できませんでした。')
      throw error
    }
  }

  return (
    <section
      // The home page's continue cards link to the next question by this anchor.
      id={`question-${question.id}`}
      aria-labelledby={headingId}
      data-question-id={question.id}
      data-question-kind={question.kind}
      className="rounded-xl border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="text-lg font-bold">
          問題 {number}
        </h2>
        <span className="text-sm text-slate-600 dark:text-slate-400">
          {KIND_LABELS[question.kind]}
          {question.language && `（${LANGUAGE_LABELS[question.language]}）`}・
          {LEVEL_LABELS[question.difficulty]}
        </span>
        <StatusBadge status={status} />
      </div>
      {question.locked || question.promptHtml === null || content === null ? (
        <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950">
          <p className="flex items-center gap-2 font-semibold">
            <Lock aria-hidden="true" className="size-5 shrink-0" />
            この問題はプレミアムプランで挑戦できます
          </p>
          <Link
            to="/plans"
            className="mt-3 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            プランを見る
          </Link>
        </div>
      ) : (
        <>
          <MarkdownView html={question.promptHtml} className="mt-4" />
          <div className="mt-4">
            {(content.kind === 'single' || content.kind === 'multiple') && (
              <ChoiceAnswer content={content} result={result} submit={submit} />
            )}
            {content.kind === 'text' && <TextAnswer submit={submit} />}
            {content.kind === 'code' && props.codePanel?.(question, content, submit)}
          </div>
          {problem && (
            <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
              {problem}
            </p>
          )}
          <Feedback
            result={result}
            explanationHtml={result?.explanationHtml ?? question.explanationHtml}
          />
        </>
      )}
    </section>
  )
}

function ChoiceAnswer(props: {
  content: Extract<LearnerContent, { kind: 'single' | 'multiple' }>
  result: Graded | undefined
  submit: Submit
}) {
  const { content } = props
  const multiple = content.kind === 'multiple'
  const name = useId()
  const [chosen, setChosen] = useState<string[]>([])
  const [sending, setSending] = useState(false)
  // The options of the last answer as the server judged them; changing the choice clears them.
  const [answered, setAnswered] = useState<string[]>([])
  const markOf = (id: string): 'right' | 'wrong' | undefined => {
    const feedback = props.result?.feedback
    if (!feedback || !answered.includes(id)) return undefined
    if (feedback.kind === 'single') return feedback.chosenWrong ? 'wrong' : 'right'
    if (feedback.kind === 'multiple')
      return feedback.wrongOptionIds.includes(id) ? 'wrong' : 'right'
    return undefined
  }

  async function send() {
    setSending(true)
    try {
      setAnswered([])
      await props.submit(
        multiple
          ? { kind: 'multiple', optionIds: chosen }
          : { kind: 'single', optionId: chosen[0] ?? '' },
      )
      setAnswered(chosen)
    } catch {
      // Shown by the question (its problem line).
    } finally {
      setSending(false)
    }
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        void send()
      }}
    >
      <fieldset>
        <legend className="text-sm font-semibold">
          {multiple ? '正しいものをすべて選んでください' : '正しいものを 1 つ選んでください'}
        </legend>
        <ul className="mt-2 flex flex-col gap-2">
          {content.options.map((option) => {
            const mark = markOf(option.id)
            return (
              <li key={option.id}>
                <label
                  className={`flex items-center gap-2 rounded-md border px-3 py-2 ${
                    mark === undefined
                      ? 'border-slate-300 dark:border-slate-700'
                      : mark === 'right'
                        ? 'border-emerald-600 bg-emerald-50 dark:bg-emerald-950'
                        : 'border-red-600 bg-red-50 dark:bg-red-950'
                  }`}
                >
                  <input
                    type={multiple ? 'checkbox' : 'radio'}
                    name={name}
                    value={option.id}
                    checked={chosen.includes(option.id)}
                    onChange={(event) =>
                      setChosen((old) =>
                        multiple
                          ? event.target.checked
                            ? [...old, option.id]
                            : old.filter((id) => id !== option.id)
                          : [option.id],
                      )
                    }
                  />
                  <span className="flex-1">{option.text}</span>
                  {mark && (
                    <span className="text-sm font-semibold" data-option-mark={mark}>
                      {mark === 'right' ? '○ 正しい' : '× 誤り'}
                    </span>
                  )}
                </label>
              </li>
            )
          })}
        </ul>
      </fieldset>
      <button
        type="submit"
        className={`${primaryButton} mt-3`}
        disabled={sending || chosen.length === 0}
      >
        答える
      </button>
    </form>
  )
}

function TextAnswer(props: { submit: Submit }) {
  const id = useId()
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault()
        setSending(true)
        props
          .submit({ kind: 'text', text })
          .catch(() => undefined)
          .finally(() => setSending(false))
      }}
    >
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
        <label htmlFor={id} className="font-semibold">
          答え
        </label>
        <input
          id={id}
          value={text}
          maxLength={MAX_TEXT_ANSWER_LENGTH}
          onChange={(event) => setText(event.target.value)}
          className={answerInputClass}
        />
      </div>
      <button type="submit" className={primaryButton} disabled={sending || text.trim() === ''}>
        答える
      </button>
    </form>
  )
}

/** The verdict and the explanation, announced as they arrive; the explanation stays once answered. */
function Feedback(props: { result: Graded | undefined; explanationHtml: string | null }) {
  const { result, explanationHtml } = props
  return (
    <div aria-live="polite" className="mt-4 flex flex-col gap-3">
      {/* A code question's verdict is in its run panel, with each test's report. */}
      {result && result.feedback.kind !== 'code' && (
        <div
          data-verdict={result.verdict}
          className={`rounded-lg border p-4 ${
            result.verdict === 'correct'
              ? 'border-emerald-600 bg-emerald-50 dark:bg-emerald-950'
              : 'border-red-600 bg-red-50 dark:bg-red-950'
          }`}
        >
          <p className="font-bold">{result.message}</p>
        </div>
      )}
      {explanationHtml && (
        <div className="rounded-lg bg-slate-50 p-4 dark:bg-slate-900">
          <h3 className="text-sm font-semibold">解説</h3>
          <MarkdownView html={explanationHtml} className="mt-1" />
        </div>
      )}
    </div>
  )
}
