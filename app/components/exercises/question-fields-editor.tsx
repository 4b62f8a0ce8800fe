import { Field, inputClass } from '#app/components/courses/course-editor.tsx'
import { MarkdownEditor } from '#app/components/markdown-editor.tsx'
import { LEVEL_LABELS } from '#features/courses/course-card.ts'
import { QUESTION_KINDS, type QuestionKind } from '#features/exercises/question-input.ts'
import { AcceptedAnswersEditor } from './accepted-answers-editor.tsx'
import { ChoiceOptionsEditor } from './choice-options-editor.tsx'
import { CodeQuestionEditor } from './code-question-editor.tsx'
import { KIND_LABELS, type QuestionFormState } from './question-form-state.ts'

/**
 * One question's fields: the kind, the Markdown prompt and explanation, difficulty, access and
 * tags, then the kind's own editor. Controlled: the page owns the state and its autosave.
 */
export function QuestionFieldsEditor(props: {
  state: QuestionFormState
  errorOf(field: string): string | undefined
  onChange(change: Partial<QuestionFormState>): void
}) {
  const { state, errorOf, onChange } = props
  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="問題の種類" error={errorOf('kind')}>
          {(control) => (
            <select
              {...control}
              name="kind"
              value={state.kind}
              onChange={(event) => onChange({ kind: event.target.value as QuestionKind })}
              className={inputClass}
            >
              {QUESTION_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {KIND_LABELS[kind]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="難易度" error={errorOf('difficulty')}>
          {(control) => (
            <select
              {...control}
              name="difficulty"
              value={state.difficulty}
              onChange={(event) =>
                onChange({ difficulty: event.target.value as QuestionFormState['difficulty'] })
              }
              className={inputClass}
            >
              {Object.entries(LEVEL_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="公開範囲" error={errorOf('access')}>
          {(control) => (
            <select
              {...control}
              name="access"
              value={state.access}
              onChange={(event) =>
                onChange({ access: event.target.value as QuestionFormState['access'] })
              }
              className={inputClass}
            >
              <option value="free">無料</option>
              <option value="premium">プレミアム</option>
            </select>
          )}
        </Field>
      </div>
      <MarkdownEditor
        label="問題文（Markdown）"
        name="prompt"
        value={state.prompt}
        error={errorOf('prompt')}
        onChange={(prompt) => onChange({ prompt })}
        imageFolder="studies"
        imageSubject="問題文"
      />
      {(state.kind === 'single' || state.kind === 'multiple') && (
        <ChoiceOptionsEditor
          multiple={state.kind === 'multiple'}
          options={state.options}
          error={errorOf('options')}
          onChange={(options) => onChange({ options })}
        />
      )}
      {state.kind === 'text' && (
        <AcceptedAnswersEditor
          answers={state.acceptedAnswers}
          pattern={state.pattern}
          answersError={errorOf('acceptedAnswers')}
          patternError={errorOf('pattern')}
          onChange={({ answers, pattern }) =>
            onChange({
              ...(answers && { acceptedAnswers: answers }),
              ...(pattern !== undefined && { pattern }),
            })
          }
        />
      )}
      {state.kind === 'code' && (
        <CodeQuestionEditor parts={state} errorOf={errorOf} onChange={onChange} />
      )}
      <MarkdownEditor
        label="解説（答えたあとに表示されます）"
        name="explanation"
        value={state.explanation}
        error={errorOf('explanation')}
        onChange={(explanation) => onChange({ explanation })}
        imageFolder="studies"
        imageSubject="解説"
      />
      <Field label="タグ（カンマ区切り、10 個まで）" error={errorOf('tags')}>
        {(control) => (
          <input
            {...control}
            name="tags"
            value={state.tagsText}
            placeholder="例：javascript, 変数"
            onChange={(event) => onChange({ tagsText: event.target.value })}
            className={inputClass}
          />
        )}
      </Field>
    </div>
  )
}
