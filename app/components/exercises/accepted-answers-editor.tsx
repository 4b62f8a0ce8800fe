import { Field, inputClass } from '#app/components/courses/course-editor.tsx'
import {
  MAX_ACCEPTED_ANSWERS,
  MAX_PATTERN_LENGTH,
  MAX_TEXT_ANSWER_LENGTH,
} from '#features/exercises/question-input.ts'
import { smallButton } from './editor-buttons.tsx'

/**
 * A short-text question's accepted answers (compared after folding width, case and spaces,
 * so one spelling per answer is enough) and an optional regular expression.
 */
export function AcceptedAnswersEditor(props: {
  answers: string[]
  pattern: string
  answersError: string | undefined
  patternError: string | undefined
  onChange(change: { answers?: string[]; pattern?: string }): void
}) {
  const { answers, onChange } = props
  return (
    <div className="flex flex-col gap-3">
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-semibold">
          正解（全角・半角、大文字・小文字、前後の空白は区別しません）
        </legend>
        <ol className="flex flex-col gap-2">
          {answers.map((answer, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the answers are plain strings, edited in place
            <li key={index} className="flex items-center gap-2">
              <input
                aria-label={`正解 ${index + 1}`}
                value={answer}
                maxLength={MAX_TEXT_ANSWER_LENGTH}
                onChange={(event) =>
                  onChange({
                    answers: answers.map((old, at) => (at === index ? event.target.value : old)),
                  })
                }
                className={`${inputClass} min-w-0 flex-1`}
              />
              <button
                type="button"
                className={smallButton}
                disabled={answers.length <= 1}
                aria-label={`正解 ${index + 1} を削除`}
                onClick={() => onChange({ answers: answers.filter((_, at) => at !== index) })}
              >
                削除
              </button>
            </li>
          ))}
        </ol>
        <div>
          <button
            type="button"
            className={smallButton}
            disabled={answers.length >= MAX_ACCEPTED_ANSWERS}
            onClick={() => onChange({ answers: [...answers, ''] })}
          >
            正解を追加
          </button>
        </div>
        <span className="min-h-5 text-sm text-red-700 dark:text-red-400">{props.answersError}</span>
      </fieldset>
      <Field label="正規表現（任意。答え全体がこれに一致しても正解）" error={props.patternError}>
        {(control) => (
          <input
            {...control}
            value={props.pattern}
            maxLength={MAX_PATTERN_LENGTH}
            placeholder="例：^const\s+\w+$"
            onChange={(event) => onChange({ pattern: event.target.value })}
            className={`${inputClass} font-mono`}
          />
        )}
      </Field>
    </div>
  )
}
