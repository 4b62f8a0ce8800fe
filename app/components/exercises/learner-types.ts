export type {
  AnswerFeedback,
  AnswerResult,
  AuthorQuestion,
  LearnerContent,
  LearnerQuestion,
  QuestionStatus,
  TestReport,
} from '#features/exercises/question-views.ts'
