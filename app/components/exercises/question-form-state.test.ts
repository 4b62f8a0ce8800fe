import { describe, expect, it } from 'vitest'
import { questionFields } from '#features/exercises/question-input.ts'
import { formStateOf, moved, payloadOf } from './question-form-state.ts'

describe('the question editor state', () => {
  it('sends only the chosen kind, the tags split as typed, and no editor keys', () => {
    const state = formStateOf(null, 'code')
    const payload = payloadOf({
      ...state,
      prompt: '和を表示',
      tagsText: 'JavaScript、入門 , ',
      referenceSolution: 'console.log(3)',
      tests: state.tests.map((test) => ({ ...test, expectedOutput: '3' })),
      // Typed while the kind was another: not sent.
      acceptedAnswers: ['ignored'],
    })
    expect(payload).toEqual({
      kind: 'code',
      prompt: '和を表示',
      explanation: '',
      difficulty: 'beginner',
      access: 'free',
      tags: ['JavaScript', '入門'],
      language: 'javascript',
      starterCode: '',
      referenceSolution: 'console.log(3)',
      tests: [{ name: 'テスト 1', stdin: '', expectedOutput: '3', hidden: false }],
      timeLimitMs: 2000,
    })
    expect(questionFields.safeParse(payload).success).toBe(true)
  })

  it('drops empty accepted answers and sends an empty pattern as none', () => {
    const state = { ...formStateOf(null, 'text'), prompt: 'キーワードは？' }
    expect(payloadOf({ ...state, acceptedAnswers: ['const', ' '], pattern: '  ' })).toMatchObject({
      acceptedAnswers: ['const'],
      pattern: null,
    })
    // Neither an answer nor a pattern: the schema refuses it, so a new question is not created yet.
    expect(questionFields.safeParse(payloadOf(state)).success).toBe(false)
  })

  it('opens a stored question with its kind part, keeping the other kinds blank', () => {
    const state = formStateOf({
      prompt: '選んで',
      explanation: '',
      difficulty: 'intermediate',
      access: 'premium',
      tags: ['a', 'b'],
      content: {
        kind: 'multiple',
        options: [
          { id: 'x', text: '1', correct: true },
          { id: 'y', text: '2', correct: true },
        ],
      },
    })
    expect(state).toMatchObject({
      kind: 'multiple',
      difficulty: 'intermediate',
      access: 'premium',
      tagsText: 'a, b',
      options: [
        { id: 'x', text: '1', correct: true },
        { id: 'y', text: '2', correct: true },
      ],
      acceptedAnswers: [''],
    })
  })

  it('moves an item one place, and not past either end', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b'])
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c'])
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c'])
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c'])
  })
})
