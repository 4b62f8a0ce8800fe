import { inputClass } from '#app/components/courses/course-editor.tsx'
import { fieldLimits } from '#app/lib/field-limits.ts'
import { MAX_OPTIONS, optionInput } from '#features/exercises/question-input.ts'
import { smallButton } from './editor-buttons.tsx'
import { moved, newOptionId, type OptionState } from './question-form-state.ts'

/**
 * A choice question's options: each with its text and a 「正解」 toggle (a radio for single
 * choice, a checkbox for multiple), added, removed and moved with labelled buttons.
 */
export function ChoiceOptionsEditor(props: {
  multiple: boolean
  options: OptionState[]
  error: string | undefined
  onChange(options: OptionState[]): void
}) {
  const { options, onChange } = props
  const set = (index: number, change: Partial<OptionState>) =>
    onChange(options.map((option, at) => (at === index ? { ...option, ...change } : option)))
  const markCorrect = (index: number, correct: boolean) =>
    onChange(
      options.map((option, at) =>
        at === index
          ? { ...option, correct }
          : props.multiple
            ? option
            : { ...option, correct: false },
      ),
    )
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-semibold">
        選択肢（{props.multiple ? '正解をすべて' : '正解を 1 つ'}選んでください）
      </legend>
      <ol className="flex flex-col gap-2">
        {options.map((option, index) => {
          const name = `選択肢 ${index + 1}`
          return (
            <li
              key={option.id}
              className="flex flex-wrap items-center gap-2"
              data-option-index={index}
            >
              <input
                aria-label={name}
                value={option.text}
                maxLength={fieldLimits(optionInput.shape.text).maxLength}
                onChange={(event) => set(index, { text: event.target.value })}
                className={`${inputClass} min-w-0 flex-1`}
              />
              <label className="flex items-center gap-1 text-sm">
                <input
                  type={props.multiple ? 'checkbox' : 'radio'}
                  name={props.multiple ? undefined : 'correct-option'}
                  checked={option.correct}
                  onChange={(event) => markCorrect(index, event.target.checked)}
                  aria-label={`${name}を正解にする`}
                />
                <span aria-hidden="true">正解</span>
              </label>
              <button
                type="button"
                className={smallButton}
                disabled={index === 0}
                aria-label={`${name}を上へ`}
                onClick={() => onChange(moved(options, index, -1))}
              >
                <span aria-hidden="true">↑</span>
              </button>
              <button
                type="button"
                className={smallButton}
                disabled={index === options.length - 1}
                aria-label={`${name}を下へ`}
                onClick={() => onChange(moved(options, index, 1))}
              >
                <span aria-hidden="true">↓</span>
              </button>
              <button
                type="button"
                className={smallButton}
                disabled={options.length <= 2}
                aria-label={`${name}を削除`}
                onClick={() => onChange(options.filter((_, at) => at !== index))}
              >
                削除
              </button>
            </li>
          )
        })}
      </ol>
      <div>
        <button
          type="button"
          className={smallButton}
          disabled={options.length >= MAX_OPTIONS}
          onClick={() => onChange([...options, { id: newOptionId(), text: '', correct: false }])}
        >
          選択肢を追加
        </button>
      </div>
      <span className="min-h-5 text-sm text-red-700 dark:text-red-400">{props.error}</span>
    </fieldset>
  )
}
