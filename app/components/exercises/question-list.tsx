import { CodeAnswer } from './code-answer.tsx'
import type { LearnerQuestion } from './learner-types.ts'
import { QuestionAnswer, type Submit } from './question-answer.tsx'

/**
 * An exercise set to answer, numbered from 1, code questions with their editor and run panel:
 * a study's exercises and /example's sample set. `answer` posts one question's answer.
 */
export function QuestionList(props: {
  questions: readonly LearnerQuestion[]
  answer(questionId: string, ...rest: Parameters<Submit>): ReturnType<Submit>
  className?: string
}) {
  return (
    <ol className={`flex flex-col gap-6 ${props.className ?? ''}`}>
      {props.questions.map((question, index) => (
        <li key={question.id}>
          <QuestionAnswer
            number={index + 1}
            question={question}
            submit={(answer) => props.answer(question.id, answer)}
            codePanel={(_question, content, submit) => (
              <CodeAnswer content={content} submit={submit} />
            )}
          />
        </li>
      ))}
    </ol>
  )
}
