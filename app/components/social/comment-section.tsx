import { type FormEvent, lazy, Suspense, useId, useState } from 'react'
import { useConfirm } from '#app/components/confirm-dialog.tsx'
import { MarkdownView } from '#app/components/markdown-view.tsx'
import { HiddenNotice, ReportButton } from '#app/components/moderation/moderation-marks.tsx'
import { ApiRequestError } from '#app/lib/api/client.ts'
import { type SocialApi, socialApi } from '#app/lib/api/social.ts'
import { formatDate } from '#app/lib/format.ts'
import { useSettings } from '#app/lib/root-data.ts'
import type { ContentKind } from '#db/schema.ts'
import type { CommentPage, CommentThread, CommentView } from '#features/social/comments.server.ts'
import { SignInLink } from './sign-in-link.tsx'

export const COMMENT_PAGE_SIZE = 20

// Only a reader who opens the preview downloads it (and the renderer it loads).
const MarkdownPreview = lazy(() =>
  import('#app/components/markdown-editor.tsx').then((module) => ({
    default: module.MarkdownPreview,
  })),
)

const buttonClass =
  'rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800'
const primaryClass =
  'rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60'

function messageOf(error: unknown): string {
  if (error instanceof ApiRequestError) return error.fields?.body?.[0] ?? error.message
  return '送信できませんでした。通信環境を確認してもう一度お試しください'
}

/**
 * The comments of an item of any kind: threads newest first with their replies, a Markdown
 * form for signed-in readers, edit and delete where the server allows, and more on demand.
 */
export function CommentSection(props: {
  kind: ContentKind
  id: string
  firstPage: CommentPage
  signedIn: boolean
}) {
  const { apiGatewayUrl } = useSettings()
  const api = socialApi(apiGatewayUrl, props.kind, props.id)
  const [threads, setThreads] = useState<CommentThread[]>(props.firstPage.items)
  const [total, setTotal] = useState(props.firstPage.total)
  const [nextCursor, setNextCursor] = useState(props.firstPage.nextCursor)
  const [loading, setLoading] = useState(false)
  const [loadError, setLoadError] = useState<string>()

  async function loadMore() {
    if (!nextCursor) return
    setLoading(true)
    setLoadError(undefined)
    try {
      const page = await api.comments(nextCursor, COMMENT_PAGE_SIZE)
      setThreads((shown) => [
        ...shown,
        ...page.items.filter((item) => !shown.some((thread) => thread.id === item.id)),
      ])
      setNextCursor(page.nextCursor)
      setTotal(page.total)
    } catch (error) {
      setLoadError(messageOf(error))
    } finally {
      setLoading(false)
    }
  }

  const changes: ThreadChanges = {
    added(comment) {
      setTotal((count) => count + 1)
      setThreads((shown) =>
        comment.parentId === null
          ? [{ ...comment, replies: [] }, ...shown]
          : shown.map((thread) =>
              thread.id === comment.parentId
                ? { ...thread, replies: [...thread.replies, comment] }
                : thread,
            ),
      )
    },
    edited(comment) {
      setThreads((shown) =>
        shown.map((thread) =>
          thread.id === comment.id
            ? { ...comment, replies: thread.replies }
            : {
                ...thread,
                replies: thread.replies.map((reply) => (reply.id === comment.id ? comment : reply)),
              },
        ),
      )
    },
    removed(comment) {
      const thread = threads.find((candidate) => candidate.id === comment.id)
      setTotal((count) => count - 1 - (thread?.replies.length ?? 0))
      setThreads((shown) =>
        shown
          .filter((candidate) => candidate.id !== comment.id)
          .map((candidate) => ({
            ...candidate,
            replies: candidate.replies.filter((reply) => reply.id !== comment.id),
          })),
      )
    },
  }

  return (
    <section aria-labelledby="comments-heading" className="mt-12">
      <h2 id="comments-heading" className="text-xl font-bold">
        コメント <span data-testid="comment-count">{total}</span> 件
      </h2>
      {props.signedIn ? (
        <div className="mt-4">
          <CommentForm
            label="コメント（Markdown）"
            submitLabel="コメントする"
            onSubmit={async (body) => changes.added(await api.post(body))}
          />
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          コメントするには<SignInLink>ログイン</SignInLink>してください。
        </p>
      )}
      {threads.length === 0 ? (
        <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
          まだコメントはありません。
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-6">
          {threads.map((thread) => (
            <li key={thread.id}>
              <CommentItem comment={thread} api={api} changes={changes} signedIn={props.signedIn} />
              {thread.replies.length > 0 && (
                <ul
                  aria-label="返信"
                  className="mt-3 ml-6 flex flex-col gap-3 border-l-2 border-slate-200 pl-4 dark:border-slate-700"
                >
                  {thread.replies.map((reply) => (
                    <li key={reply.id}>
                      <CommentItem
                        comment={reply}
                        api={api}
                        changes={changes}
                        signedIn={props.signedIn}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {nextCursor && (
        <div className="mt-6 text-center">
          <button
            type="button"
            onClick={() => void loadMore()}
            disabled={loading}
            className={buttonClass}
          >
            {loading ? '読み込み中…' : 'さらに読み込む'}
          </button>
          {loadError && (
            <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
              {loadError}
            </p>
          )}
        </div>
      )}
    </section>
  )
}

type ThreadChanges = {
  added(comment: CommentView): void
  edited(comment: CommentView): void
  removed(comment: CommentView): void
}

function CommentItem(props: {
  comment: CommentView
  api: SocialApi
  changes: ThreadChanges
  signedIn: boolean
}) {
  const { comment, api, changes } = props
  const [mode, setMode] = useState<'view' | 'edit' | 'reply'>('view')
  const [deleting, setDeleting] = useState(false)
  const [error, setError] = useState<string>()
  const [confirm, confirmDialog] = useConfirm()

  async function remove() {
    const ok = await confirm(
      comment.parentId
        ? { title: 'この返信を削除しますか？', confirmLabel: '削除する' }
        : {
            title: 'このコメントを削除しますか？',
            body: 'ついた返信も一緒に削除されます。',
            confirmLabel: '削除する',
          },
    )
    if (!ok) return
    setDeleting(true)
    setError(undefined)
    try {
      await api.remove(comment.id)
      changes.removed(comment)
    } catch (caught) {
      setError(messageOf(caught))
      setDeleting(false)
    }
  }

  return (
    <article
      id={`comment-${comment.id}`}
      aria-label={`${comment.author?.displayName ?? '退会したユーザー'}のコメント`}
    >
      {confirmDialog}
      <p className="text-sm text-slate-600 dark:text-slate-400">
        <span className="font-semibold text-slate-900 dark:text-slate-100">
          {comment.author?.displayName ?? '退会したユーザー'}
        </span>
        <span aria-hidden="true"> ・ </span>
        <time dateTime={new Date(comment.createdAt).toISOString()}>
          {formatDate(comment.createdAt)}
        </time>
        {comment.edited && <span>（編集済み）</span>}
      </p>
      <HiddenNotice hidden={comment.hidden} what="コメント" />
      {mode === 'edit' ? (
        <div className="mt-2">
          <CommentForm
            label="コメントを編集（Markdown）"
            initial={comment.body}
            submitLabel="保存する"
            onSubmit={async (body) => {
              changes.edited(await api.update(comment.id, body))
              setMode('view')
            }}
            onCancel={() => setMode('view')}
          />
        </div>
      ) : (
        <MarkdownView html={comment.html} className="mt-1" />
      )}
      {mode !== 'edit' && (
        <div className="mt-2 flex flex-wrap gap-2">
          {props.signedIn && comment.parentId === null && mode === 'view' && (
            <button type="button" onClick={() => setMode('reply')} className={buttonClass}>
              返信
            </button>
          )}
          {comment.canEdit && (
            <button type="button" onClick={() => setMode('edit')} className={buttonClass}>
              編集
            </button>
          )}
          {comment.author && (
            <ReportButton
              kind="comment"
              id={comment.id}
              ownerUsername={comment.author.username}
              className={buttonClass}
            />
          )}
          {comment.canDelete && (
            <button
              type="button"
              onClick={() => void remove()}
              disabled={deleting}
              className={buttonClass}
            >
              削除
            </button>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {mode === 'reply' && (
        <div className="mt-3">
          <CommentForm
            label="返信（Markdown）"
            submitLabel="返信する"
            onSubmit={async (body) => {
              changes.added(await api.post(body, comment.id))
              setMode('view')
            }}
            onCancel={() => setMode('view')}
          />
        </div>
      )}
    </article>
  )
}

function CommentForm(props: {
  label: string
  submitLabel: string
  initial?: string
  onSubmit(body: string): Promise<void>
  onCancel?(): void
}) {
  const [body, setBody] = useState(props.initial ?? '')
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<string>()

  async function submit(event: FormEvent) {
    event.preventDefault()
    setSending(true)
    setError(undefined)
    try {
      await props.onSubmit(body)
      setBody('')
    } catch (caught) {
      setError(messageOf(caught))
    } finally {
      setSending(false)
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-2">
      <CommentBox label={props.label} value={body} onChange={setBody} error={error} />
      <div className="flex gap-2">
        <button type="submit" disabled={sending} className={primaryClass}>
          {sending ? '送信中…' : props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel} className={buttonClass}>
            キャンセル
          </button>
        )}
      </div>
    </form>
  )
}

/**
 * The comment box: one line until it is focused (or holds text), then a few lines that grow
 * with the text; Markdown is written in 「書く」 and shown in 「プレビュー」, as tabs.
 */
function CommentBox(props: {
  label: string
  value: string
  onChange(value: string): void
  error?: string
}) {
  const id = useId()
  const [tab, setTab] = useState<'write' | 'preview'>('write')
  const [focused, setFocused] = useState(false)
  const open = focused || props.value !== ''
  const lines = props.value.split('\n').length
  const tabClass = (selected: boolean) =>
    `rounded-md px-3 py-1 text-sm ${
      selected
        ? 'bg-brand-600 font-semibold text-white'
        : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
    }`
  return (
    <div className="flex flex-col gap-2" data-comment-box={open ? 'open' : 'closed'}>
      <div className="flex items-end justify-between gap-2">
        <label htmlFor={`${id}-text`} className="text-sm font-semibold">
          {props.label}
        </label>
        <div role="tablist" aria-label={`${props.label}の表示`} className="flex gap-1">
          {(['write', 'preview'] as const).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`${id}-tab-${name}`}
              aria-controls={`${id}-panel-${name}`}
              aria-selected={tab === name}
              onClick={() => setTab(name)}
              className={tabClass(tab === name)}
            >
              {name === 'write' ? '書く' : 'プレビュー'}
            </button>
          ))}
        </div>
      </div>
      <div
        id={`${id}-panel-write`}
        role="tabpanel"
        aria-labelledby={`${id}-tab-write`}
        hidden={tab !== 'write'}
      >
        <textarea
          id={`${id}-text`}
          name="body"
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          rows={open ? Math.min(Math.max(lines, 4), 16) : 1}
          placeholder={open ? 'Markdown で書けます（**太字**、`コード` など）' : 'コメントを書く…'}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${id}-error` : undefined}
          className="block w-full resize-y rounded-lg border border-slate-300 bg-white px-3 py-2 text-base placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-3 focus:ring-brand-500/30 dark:border-slate-600 dark:bg-slate-900 dark:placeholder:text-slate-400"
        />
      </div>
      <div
        id={`${id}-panel-preview`}
        role="tabpanel"
        aria-labelledby={`${id}-tab-preview`}
        hidden={tab !== 'preview'}
        className="relative min-h-24 overflow-auto rounded-lg border border-slate-300 px-4 py-3 dark:border-slate-600"
      >
        {tab === 'preview' && (
          <Suspense fallback={<p className="text-sm">プレビューを準備しています…</p>}>
            <MarkdownPreview source={props.value} flavour="plain" />
          </Suspense>
        )}
      </div>
      {props.error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700 dark:text-red-400">
          {props.error}
        </p>
      )}
    </div>
  )
}
