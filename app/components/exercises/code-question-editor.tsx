import { useState } from 'react'
import { Field, inputClass } from '#app/components/courses/course-editor.tsx'
import {
  allPassed,
  CODE_LANGUAGES,
  type CodeLanguage,
  type CodeRunner,
  MAX_TIME_LIMIT_MS,
  MIN_TIME_LIMIT_MS,
  runTests,
  type TestOutcome,
} from '#features/exercises/code-run.ts'
import { MAX_TESTS } from '#features/exercises/question-input.ts'
import { CodeField } from './code-field.tsx'
import { smallButton } from './editor-buttons.tsx'
import { blankTest, LANGUAGE_LABELS, moved, type TestState } from './question-form-state.ts'
import { RunOutcomeDetails } from './run-outcome.tsx'

export type CodeParts = {
  language: CodeLanguage
  starterCode: string
  referenceSolution: string
  tests: TestState[]
  timeLimitMs: number
}

/**
 * A code question's language, starter code, reference solution, tests (visible or hidden) and
 * time limit, with 「模範解答をテストで実行」: the reference runs against every test in this
 * browser's runner, the same judge the learner's 「提出」 and the server use, so an author sees
 * a failing test before publishing (which the server refuses anyway).
 */
export function CodeQuestionEditor(props: {
  parts: CodeParts
  errorOf(field: string): string | undefined
  loadRunner(language: CodeLanguage): Promise<CodeRunner>
  onChange(change: Partial<CodeParts>): void
}) {
  const { parts, errorOf, onChange } = props
  const [check, setCheck] = useState<
    | { state: 'idle' }
    | { state: 'running' }
    | { state: 'done'; outcomes: TestOutcome[]; passed: boolean }
    | { state: 'failed'; message: string }
  >({ state: 'idle' })

  async function runReference() {
    setCheck({ state: 'running' })
    try {
      const runner = await props.loadRunner(parts.language)
      const outcomes = await runTests(
        runner,
        { language: parts.language, code: parts.referenceSolution, timeLimitMs: parts.timeLimitMs },
        parts.tests,
      )
      setCheck({ state: 'done', outcomes, passed: allPassed(outcomes, parts.tests) })
    } catch {
      setCheck({
        state: 'failed',
        message: '実行環境を読み込めませんでした。通信環境を確認してください。',
      })
    }
  }

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
      <CodeField
        label="最初に表示するコード（任意）"
        language={parts.language}
        value={parts.starterCode}
        error={errorOf('starterCode')}
        onChange={(starterCode) => onChange({ starterCode })}
      />
      <CodeField
        label="模範解答（学習者には送られません）"
        language={parts.language}
        value={parts.referenceSolution}
        error={errorOf('referenceSolution')}
        onChange={(referenceSolution) => onChange({ referenceSolution })}
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
                  <CodeField
                    label={`${name}の標準入力`}
                    rows={3}
                    value={test.stdin}
                    error={errorOf(`tests.${index}.stdin`)}
                    onChange={(stdin) => setTest(index, { stdin })}
                  />
                  <CodeField
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
      <div className="flex flex-col gap-2">
        <div>
          <button
            type="button"
            onClick={() => void runReference()}
            disabled={check.state === 'running' || parts.referenceSolution.trim() === ''}
            className="rounded-md bg-slate-800 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-700 disabled:opacity-50 dark:bg-slate-200 dark:text-slate-900"
          >
            模範解答をテストで実行
          </button>
        </div>
        <div
          aria-live="polite"
          data-reference-check={check.state === 'done' ? String(check.passed) : check.state}
        >
          {check.state === 'running' && <p className="text-sm">実行しています…</p>}
          {check.state === 'failed' && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {check.message}
            </p>
          )}
          {check.state === 'done' && (
            <div className="flex flex-col gap-2 text-sm">
              <p
                className={
                  check.passed
                    ? 'font-semibold text-emerald-800 dark:text-emerald-300'
                    : 'font-semibold text-red-700 dark:text-red-400'
                }
              >
                {check.passed
                  ? '模範解答はすべてのテストに通りました。'
                  : '模範解答が通らないテストがあります。このままでは公開できません。'}
              </p>
              <RunOutcomeDetails outcomes={check.outcomes} timeLimitMs={parts.timeLimitMs} />
            </div>
          )}
        </div>
      </div>
    </div>
  )
}
