import { createHighlighterCoreSync, type HighlighterCore } from '@shikijs/core'
import { createJavaScriptRegexEngine } from '@shikijs/engine-javascript'
import bash from '@shikijs/langs/bash'
import css from '@shikijs/langs/css'
import diff from '@shikijs/langs/diff'
import html from '@shikijs/langs/html'
import javascript from '@shikijs/langs/javascript'
import json from '@shikijs/langs/json'
import markdown from '@shikijs/langs/markdown'
import python from '@shikijs/langs/python'
import sql from '@shikijs/langs/sql'
import tsx from '@shikijs/langs/tsx'
import typescript from '@shikijs/langs/typescript'
import githubDarkDefault from '@shikijs/themes/github-dark-default'
import githubLightDefault from '@shikijs/themes/github-light-default'
import type { Element, Root } from 'hast'
import { toString as textOf } from 'hast-util-to-string'
import { SKIP, visit } from 'unist-util-visit'

/**
 * Shiki with a fixed set of grammars and the JavaScript regex engine: no WebAssembly, and the
 * highlighter is created synchronously, so the same call renders on the server and in the
 * editor's preview without awaiting anything. Created once per process (or page), on first use.
 */
export function createCodeHighlighter(): HighlighterCore {
  return createHighlighterCoreSync({
    // GitHub's current palettes: the older github-light and github-dark fall under WCAG AA contrast (axe).
    themes: [githubLightDefault, githubDarkDefault],
    langs: [bash, css, diff, html, javascript, json, markdown, python, sql, tsx, typescript],
    // Shiki's JavaScript grammar already reads JSX; a separate jsx grammar would add 170 kB.
    langAlias: { jsx: 'javascript' },
    // Not `forgiving`: with it, the first tokenisation of some grammars (tsx, js, html) came out
    // different from later ones, so server and browser markup would disagree. Every grammar
    // above compiles strictly; a failure at highlight time falls back to plain text below.
    engine: createJavaScriptRegexEngine(),
  })
}

let highlighter: HighlighterCore | undefined

function getHighlighter(): HighlighterCore {
  highlighter ??= createCodeHighlighter()
  return highlighter
}

const PLAIN = 'text'

/** Longer lines (minified code, data) are shown uncoloured rather than tokenised. */
const MAX_HIGHLIGHTED_LINE = 1000

/** The loaded grammar for a fence's info string (name or alias), or plain text. */
function resolveLanguage(shiki: HighlighterCore, requested: string | undefined): string {
  if (!requested) return PLAIN
  const lang = requested.toLowerCase()
  return shiki.getLoadedLanguages().includes(lang) ? lang : PLAIN
}

/**
 * A highlighted `<pre>` for the code. Both themes are in the markup as `light-dark()` colours,
 * so the block follows the page's `color-scheme` (the user's dark mode) with no script.
 */
export function highlightCode(
  code: string,
  requested: string | undefined,
  shiki: HighlighterCore = getHighlighter(),
): Element {
  const lang = resolveLanguage(shiki, requested)
  const options = {
    themes: { light: 'github-light-default', dark: 'github-dark-default' },
    defaultColor: 'light-dark()' as const,
    // No time limit per line: Shiki's default (500 ms) cut lines short while a cold highlighter
    // compiled its patterns, so the same code came out coloured differently on first use (a
    // hydration mismatch). The cost is bounded by the length cap instead, which is deterministic.
    tokenizeTimeLimit: 0,
    tokenizeMaxLineLength: MAX_HIGHLIGHTED_LINE,
  }
  let root: ReturnType<HighlighterCore['codeToHast']>
  try {
    root = shiki.codeToHast(code, { ...options, lang })
  } catch {
    // A grammar failing on odd input must not break the page: show the code unhighlighted.
    root = shiki.codeToHast(code, { ...options, lang: PLAIN })
  }
  const pre = root.children[0]
  if (pre?.type !== 'element') throw new Error('Shiki returned no <pre>')
  pre.properties.dataLanguage = lang
  return pre
}

function fenceLanguage(code: Element): string | undefined {
  const classes = code.properties.className
  if (!Array.isArray(classes)) return undefined
  const language = classes.find((name) => String(name).startsWith('language-'))
  return language === undefined ? undefined : String(language).slice('language-'.length)
}

/**
 * Replaces each `<pre><code>` with Shiki's highlighted block. Runs after sanitising: Shiki's
 * inline colours are our own output, and the code text it is given is plain text either way.
 */
export function rehypeHighlight() {
  return (tree: Root) => {
    visit(tree, 'element', (node, index, parent) => {
      if (node.tagName !== 'pre' || parent === undefined || index === undefined) return
      const code = node.children.find(
        (child): child is Element => child.type === 'element' && child.tagName === 'code',
      )
      if (!code) return
      parent.children[index] = highlightCode(textOf(code).replace(/\n$/, ''), fenceLanguage(code))
      return SKIP
    })
  }
}
