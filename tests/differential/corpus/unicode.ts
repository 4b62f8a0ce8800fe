import type { CorpusEntry } from './types.ts'

// The same three programs on texts a Japanese learner's tests hold: echoing a line, counting
// its characters (UTF-16 units in JavaScript, code points in Python: each language's own
// answer), and reversing it by characters. Both runners must hand the program the same text
// and compare what it prints the same way.

const TEXTS: [name: string, text: string][] = [
  ['ascii', 'hello world'],
  ['hiragana', 'こんにちは'],
  ['katakana', 'カタカナ'],
  ['kanji', '漢字の練習'],
  ['half-width-kana', 'ﾃｽﾄ'],
  ['full-width-latin', 'ＴｅｃｈＬａｂ'],
  ['full-width-digits', '２０２６年'],
  ['ideographic-space', '山田　太郎'],
  ['emoji', '👍すごい'],
  ['emoji-family', '👨‍👩‍👧'],
  ['combining', 'がぎぐ'],
  ['kanji-extension-b', '𠮷野家'],
  ['symbols', '①②③※〒'],
  ['tab-inside', 'a\tb'],
  ['leading-spaces', '  前に空白'],
  ['long-line', 'あいうえお'.repeat(200)],
  ['mixed', 'Pythonで「Hello」と表示'],
  ['punctuation', '、。！？「」'],
  ['korean', '안녕하세요'],
  ['rtl', 'مرحبا'],
]

/** Code points of `text`, reversed: what both languages' usual reversal gives. */
const reversed = (text: string) => Array.from(text).reverse().join('')

export function unicodeEntries(): CorpusEntry[] {
  const entries: CorpusEntry[] = []
  const add = (
    id: string,
    language: CorpusEntry['language'],
    code: string,
    text: string,
    out: string,
  ) =>
    entries.push({
      id: `${language}/unicode/${id}`,
      language,
      code,
      timeLimitMs: 2_000,
      // With and without the final newline, and with a Windows line ending.
      tests: [
        { stdin: `${text}\n`, expectedOutput: out },
        { stdin: text, expectedOutput: out },
        { stdin: `${text}\r\n`, expectedOutput: out },
      ],
      expected: 'pass',
    })
  for (const [name, text] of TEXTS) {
    add(`${name}/echo`, 'javascript', 'console.log(input())', text, text)
    add(`${name}/echo`, 'python', 'print(input())', text, text)
    add(`${name}/length`, 'javascript', 'console.log(input().length)', text, String(text.length))
    add(`${name}/length`, 'python', 'print(len(input()))', text, String(Array.from(text).length))
    add(
      `${name}/reverse`,
      'javascript',
      'console.log([...input()].reverse().join(""))',
      text,
      reversed(text),
    )
    add(`${name}/reverse`, 'python', 'print(input()[::-1])', text, reversed(text))
  }
  return entries
}
