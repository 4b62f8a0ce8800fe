import { RE2JS, RE2JSException } from 're2js'
import type { AnswerFeedback } from './question-views.ts'

// Choice and text answers are graded here, on the server (docs/decisions/031): the browser
// never holds the correct options, the accepted answers or the pattern.

type Option = { id: string; correct: boolean }

/**
 * How answers and accepted answers are compared: NFKC (full-width letters and digits become
 * half-width, half-width katakana full-width), case folded, trimmed, inner runs of spaces as
 * one space.
 */
export function foldAnswer(text: string): string {
  return text.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ')
}

/**
 * An author's pattern, compiled by RE2 (re2js): matching takes time linear in the answer's
 * length whatever the pattern, so no pattern can hang the server. RE2 has no backreferences
 * or lookaround; a pattern using them is refused when saved. Undefined when it does not compile.
 */
export function compilePattern(pattern: string): RE2JS | undefined {
  try {
    // NFKC like the answers, so that a full-width character in the pattern meets its folded
    // answer; not lower-cased, which would change escapes such as \S.
    return RE2JS.compile(pattern.normalize('NFKC'), RE2JS.CASE_INSENSITIVE)
  } catch (error) {
    if (error instanceof RE2JSException) return undefined
    throw error
  }
}

/** The Japanese reason a pattern cannot be saved, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  return compilePattern(pattern)
    ? undefined
    : '正規表現として読めません（後方参照や先読みは使えません）'
}

export type Grade = { correct: boolean; feedback: AnswerFeedback }

export function gradeSingle(options: readonly Option[], optionId: string): Grade {
  const correct = options.some((option) => option.id === optionId && option.correct)
  return { correct, feedback: { kind: 'single', chosenWrong: !correct } }
}

/** All correct options and nothing else; the feedback names the wrong picks and counts the missing. */
export function gradeMultiple(options: readonly Option[], optionIds: readonly string[]): Grade {
  const chosen = new Set(optionIds)
  const wrongOptionIds = options
    .filter((option) => chosen.has(option.id) && !option.correct)
    .map((option) => option.id)
  const missingCorrect = options.filter((option) => option.correct && !chosen.has(option.id)).length
  // Ids that are no option of this question are wrong picks too (the form never sends them).
  const known = new Set(options.map((option) => option.id))
  const unknown = [...chosen].filter((id) => !known.has(id))
  return {
    correct: wrongOptionIds.length === 0 && unknown.length === 0 && missingCorrect === 0,
    feedback: { kind: 'multiple', wrongOptionIds: [...wrongOptionIds, ...unknown], missingCorrect },
  }
}

/** Equal to an accepted answer after folding, or matched whole by the pattern (folded too). */
export function gradeText(
  question: { acceptedAnswers: readonly string[]; pattern: string | null },
  text: string,
): Grade {
  const answer = foldAnswer(text)
  const accepted =
    answer !== '' &&
    (question.acceptedAnswers.some((candidate) => foldAnswer(candidate) === answer) ||
      (question.pattern !== null && (compilePattern(question.pattern)?.matches(answer) ?? false)))
  return { correct: accepted, feedback: { kind: 'text' } }
}
