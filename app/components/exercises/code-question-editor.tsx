import { useId, useState } from 'react'
import { CodeEditor } from '#app/components/code-editor.tsx'
import { Field, inputClass } from '#app/components/courses/course-editor.tsx'
import {
  CODE_LANGUAGES,
  type CodeLanguage,
  MAX_TIME_LIMIT_MS,
  MIN_TIME_LIMIT_MS,
} from '#features/exercises/code-run.ts'
import { MAX_TESTS } from '#features/exercises/question-input.ts'
import { CodeRunPanel } from './code-run-panel.tsx'
import { smallButton } from './editor-buttons.tsx'
import { blankTest, LANGUAGE_LABELS, moved, type TestState } from './question-form-state.ts'
import { TestTextField } from './test-text-field.tsx'

export type CodeParts = {
  language: CodeLanguage
  starterCode: string
  referenceSolution: string
  tests: TestState[]
  timeLimitMs: number
}

/**
 * A code question's language, starter code, tests (visible or hidden), time limit and reference
 * solution, written in the runners' panel: its 「実行」 runs the reference against every test in
 * this browser, with the judge the learner's 「提出」 and the server use, so an author sees a
 * failing test before publishing (which the server refuses anyway).
 */
export function CodeQuestionEditor(props: {
  parts: CodeParts
  errorOf(field: string): string | undefined
  onChange(change: Partial<CodeParts>): void
}) {
  const { parts, errorOf, onChange } = props
  const referenceId = useId()
  // What 「最初のコードに戻す」 restores: the reference as the editor opened.
  const [initialReference] = useState(parts.referenceSolution)
  const setTest = (index: number, change: Partial<TestState>) =>
    onChange({
      tests: parts.tests.map((test, at) => (at === index ? { ...test, ...change } : test)),
    })

  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="言語" error={errorOf('language')}>
          {(control) => (
            <select
              {...control}
              value={parts.language}
              onChange={(event) => onChange({ language: event.target.value as CodeLanguage })}
              className={inputClass}
            >
              {CODE_LANGUAGES.map((language) => (
                <option key={language} value={language}>
                  {LANGUAGE_LABELS[language]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="制限時間（ミリ秒、学習者に表示されます）" error={errorOf('timeLimitMs')}>
          {(control) => (
            <input
              {...control}
              type="number"
              min={MIN_TIME_LIMIT_MS}
              max={MAX_TIME_LIMIT_MS}
              step={100}
              value={parts.timeLimitMs}
              onChange={(event) => onChange({ timeLimitMs: Number(event.target.value) })}
              className={inputClass}
            />
          )}
        </Field>
      </div>
      <CodeEditor
        key={parts.language}
        label="最初に表示するコード（任意）"
        language={parts.language}
        value={parts.starterCode}
        error={errorOf('starterCode')}
        rows={6}
        onChange={(starterCode) => onChange({ starterCode })}
      />
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {parts.language === 'javascript'
          ? '標準入力は input() で 1 行ずつ読めます（終わりは null）。console.log で出力します。'
          : '標準入力は input() で 1 行ずつ読めます。print で出力します。'}
      </p>
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-semibold">
          テスト（出力は行末の空白と最後の空行を無視して比べます）
        </legend>
        <ol className="flex flex-col gap-3">
          {parts.tests.map((test, index) => {
            const name = `テスト ${index + 1}`
            return (
              <li
                key={test.key}
                className="rounded-lg border border-slate-200 p-3 dark:border-slate-800"
              >
                <div className="flex flex-wrap items-end gap-2">
                  <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
                    <span className="font-semibold">{name}の名前</span>
                    <input
                      value={test.name}
                      maxLength={100}
                      onChange={(event) => setTest(index, { name: event.target.value })}
                      className={inputClass}
                    />
                  </label>
                  <label className="flex items-center gap-1 text-sm">
                    <input
                      type="checkbox"
                      checked={test.hidden}
                      onChange={(event) => setTest(index, { hidden: event.target.checked })}
                    />
                    非公開テスト（提出時のみ）
                  </label>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={index === 0}
                    aria-label={`${name}を上へ`}
                    onClick={() => onChange({ tests: moved(parts.tests, index, -1) })}
                  >
                    <span aria-hidden="true">↑</span>
                  </button>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={index === parts.tests.length - 1}
                    aria-label={`${name}を下へ`}
                    onClick={() => onChange({ tests: moved(parts.tests, index, 1) })}
                  >
                    <span aria-hidden="true">↓</span>
                  </button>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={parts.tests.length <= 1}
                    aria-label={`${name}を削除`}
                    onClick={() => onChange({ tests: parts.tests.filter((_, at) => at !== index) })}
                  >
                    削除
                  </button>
                </div>
                <div className="mt-2 grid gap-2 sm:grid-cols-2">
                  <TestTextField
                    label={`${name}の標準入力`}
                    rows={3}
                    value={test.stdin}
                    error={errorOf(`tests.${index}.stdin`)}
                    onChange={(stdin) => setTest(index, { stdin })}
                  />
                  <TestTextField
                    label={`${name}の期待する出力`}
                    rows={3}
                    value={test.expectedOutput}
                    error={errorOf(`tests.${index}.expectedOutput`)}
                    onChange={(expectedOutput) => setTest(index, { expectedOutput })}
                  />
                </div>
              </li>
            )
          })}
        </ol>
        <div>
          <button
            type="button"
            className={smallButton}
            disabled={parts.tests.length >= MAX_TESTS}
            onClick={() => onChange({ tests: [...parts.tests, blankTest(parts.tests.length)] })}
          >
            テストを追加
          </button>
        </div>
        <span className="min-h-5 text-sm text-red-700 dark:text-red-400">{errorOf('tests')}</span>
      </fieldset>
      <section aria-labelledby={referenceId} className="flex flex-col gap-2">
        <h2 id={referenceId} className="text-sm font-semibold">
          模範解答（学習者には送られません）
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          「実行」で、模範解答をすべてのテスト（非公開のものも）に対してこのブラウザーで実行できます。公開するときはサーバーでも確かめ、合格しない問題があると公開できません。
        </p>
        {/* The runners' panel as the reference's editor: its 「実行」 is the check before publishing. */}
        <CodeRunPanel
          key={parts.language}
          label="模範解答"
          language={parts.language}
          starterCode={initialReference}
          initialCode={parts.referenceSolution}
          tests={parts.tests}
          timeLimitMs={parts.timeLimitMs}
          onCodeChange={(referenceSolution) => onChange({ referenceSolution })}
        />
        <span className="min-h-5 text-sm text-red-700 dark:text-red-400">
          {errorOf('referenceSolution')}
        </span>
      </section>
    </div>
  )
}
