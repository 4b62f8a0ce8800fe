import {
  type FormEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react'
import { useRevalidator } from 'react-router'
import { useConfirm } from '#app/components/confirm-dialog.tsx'
import { ReportButton } from '#app/components/moderation/moderation-marks.tsx'
import { ApiRequestError, callApi } from '#app/lib/api/client.ts'
import { formatDateTime } from '#app/lib/format.ts'
import { useCatchUp, useRealtimeEvent } from '#app/lib/realtime/index.ts'
import { useCurrentUser, useSettings } from '#app/lib/root-data.ts'
import { TYPING_SHOWN_MS, TYPING_THROTTLE_MS } from '#features/messages/events.ts'
import { MESSAGE_MAX_LENGTH } from '#features/messages/message-input.ts'
import type { MessagePage, MessageView, RoomView } from '#features/messages/message-views.ts'
import { MessageText } from './message-text.tsx'

/** Within this many pixels of the bottom, a reader is following along: new messages scroll in. */
const FOLLOWING_PX = 80
/** Within this many pixels of the top, older messages are loaded. */
const OLDER_PX = 120

type Anchor = { kind: 'bottom' } | { kind: 'keep'; height: number; top: number }

/** Adds or replaces messages by id (a later version wins) and keeps them in the room's order. */
function merged(current: MessageView[], incoming: MessageView[]): MessageView[] {
  if (incoming.length === 0) return current
  const byId = new Map(current.map((message) => [message.id, message]))
  const oldest = current[0]?.seq ?? 0
  let changed = false
  for (const message of incoming) {
    const existing = byId.get(message.id)
    // An edit of a message older than the ones loaded arrives with that page, if ever.
    if (!existing && message.seq < oldest) continue
    if (existing && existing.version >= message.version) continue
    byId.set(message.id, message)
    changed = true
  }
  return changed ? [...byId.values()].sort((a, b) => a.seq - b.seq) : current
}

/** Whether the reader is at the bottom of the list, following the conversation. */
function isFollowing(list: HTMLElement | null): boolean {
  return !list || list.scrollHeight - list.scrollTop - list.clientHeight < FOLLOWING_PX
}

function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.fields?.body?.[0] ?? error.message
  return fallback
}

/**
 * One room: the newest messages at the bottom, older ones loaded by scrolling up (the view
 * stays where it was), new ones arriving while the page is open, the reader's marker moved up
 * to the last message they have seen, and the other's 既読 on one's own messages.
 */
export function MessageRoom({ room, firstPage }: { room: RoomView; firstPage: MessagePage }) {
  const { apiGatewayUrl } = useSettings()
  const me = useCurrentUser()?.username
  const revalidator = useRevalidator()
  const [messages, setMessages] = useState(firstPage.items)
  const [hasOlder, setHasOlder] = useState(firstPage.hasOlder)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const [otherReadSeq, setOtherReadSeq] = useState(room.otherReadSeq)
  const [problem, setProblem] = useState<string | null>(null)
  const version = useRef(room.version)
  const readSeq = useRef(room.readSeq)
  const listRef = useRef<HTMLDivElement>(null)
  const anchor = useRef<Anchor | null>({ kind: 'bottom' })
  const busy = useRef({ catchingUp: false, older: false, reading: false })
  const roomRef = { params: { roomId: room.id } }

  const followingAlong = () => isFollowing(listRef.current)

  const receive = useCallback((incoming: MessageView[], scrollDown: boolean) => {
    if (incoming.length === 0) return
    if (scrollDown) anchor.current = { kind: 'bottom' }
    setMessages((current) => merged(current, incoming))
  }, [])

  /** Everything that changed after the version the page has: new, edited, deleted, read. */
  const catchUp = useCallback(async () => {
    if (busy.current.catchingUp) return
    busy.current.catchingUp = true
    try {
      for (;;) {
        const changes = await callApi(apiGatewayUrl, 'messages.changes', {
          params: { roomId: room.id },
          query: { after: version.current },
        })
        receive(changes.messages, isFollowing(listRef.current))
        version.current = Math.max(version.current, changes.version)
        setOtherReadSeq(changes.otherReadSeq)
        if (!changes.more) break
      }
      setProblem(null)
    } catch {
      setProblem('新しいメッセージを読み込めませんでした。接続が戻ると自動で再開します。')
    } finally {
      busy.current.catchingUp = false
    }
  }, [apiGatewayUrl, room.id, receive])
  useCatchUp(() => void catchUp())

  // Live: each event carries the message itself; the version the page asks from next stays
  // where it was, so a catch-up after a dropped connection still brings everything.
  const live = (data: { roomId: string; message: MessageView }) => {
    if (data.roomId === room.id)
      receive([data.message], followingAlong() || data.message.sender === me)
  }
  useRealtimeEvent('message.created', live)
  useRealtimeEvent('message.updated', live)
  useRealtimeEvent('message.deleted', live)
  useRealtimeEvent('room.read', (data) => {
    if (data.roomId === room.id && data.username !== me) {
      setOtherReadSeq((current) => Math.max(current, data.seq))
    }
  })
  const [typingUntil, setTypingUntil] = useState(0)
  useRealtimeEvent('typing', (data) => {
    if (data.roomId === room.id && data.username !== me)
      setTypingUntil(Date.now() + TYPING_SHOWN_MS)
  })
  useEffect(() => {
    if (typingUntil === 0) return
    const timer = setTimeout(() => setTypingUntil(0), Math.max(0, typingUntil - Date.now()))
    return () => clearTimeout(timer)
  }, [typingUntil])

  // Where the view goes after messages change: to the bottom, or kept on what was on screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each change of the list
  useLayoutEffect(() => {
    const list = listRef.current
    const wanted = anchor.current
    anchor.current = null
    if (!list || !wanted) return
    list.scrollTop =
      wanted.kind === 'bottom' ? list.scrollHeight : list.scrollHeight - wanted.height + wanted.top
  }, [messages])

  async function loadOlder() {
    const first = messages[0]
    if (busy.current.older || !hasOlder || !first) return
    busy.current.older = true
    setLoadingOlder(true)
    try {
      const page = await callApi(apiGatewayUrl, 'messages.messages', {
        ...roomRef,
        query: { before: first.seq },
      })
      const list = listRef.current
      if (list) anchor.current = { kind: 'keep', height: list.scrollHeight, top: list.scrollTop }
      setMessages((current) => [...page.items.filter((item) => item.seq < first.seq), ...current])
      setHasOlder(page.hasOlder)
    } catch {
      setProblem('以前のメッセージを読み込めませんでした。')
    } finally {
      busy.current.older = false
      setLoadingOlder(false)
    }
  }

  // The read marker: up to the last message of the other's that has been on screen.
  const seenUpTo = useRef(0)
  const flushRead = useCallback(async () => {
    const seq = seenUpTo.current
    if (busy.current.reading || seq <= readSeq.current || document.visibilityState !== 'visible') {
      return
    }
    busy.current.reading = true
    try {
      const state = await callApi(apiGatewayUrl, 'messages.read', {
        params: { roomId: room.id },
        body: { seq },
      })
      readSeq.current = state.readSeq
      // The header's unread count is the root loader's: read it again.
      void revalidator.revalidate()
    } catch {
      // The marker is moved again by the next message seen.
    } finally {
      busy.current.reading = false
    }
  }, [apiGatewayUrl, room.id, revalidator])
  // biome-ignore lint/correctness/useExhaustiveDependencies: observes the list's items after each change
  useEffect(() => {
    const list = listRef.current
    if (!list) return
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue
          const seq = Number((entry.target as HTMLElement).dataset.seq)
          if (seq > seenUpTo.current) seenUpTo.current = seq
        }
        void flushRead()
      },
      { root: list, threshold: 0.5 },
    )
    for (const item of list.querySelectorAll('[data-seq]')) observer.observe(item)
    const onVisible = () => void flushRead()
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      observer.disconnect()
      document.removeEventListener('visibilitychange', onVisible)
    }
  }, [messages, flushRead])

  // Edit and delete buttons disappear when the 10 minutes are over.
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000)
    return () => clearInterval(timer)
  }, [])

  const lastReadOfMine = messages.findLast(
    (message) => message.sender === me && message.seq <= otherReadSeq,
  )?.id

  const [muted, setMuted] = useState(room.muted)
  async function toggleMuted() {
    try {
      const state = await callApi(apiGatewayUrl, 'messages.mute', {
        params: { roomId: room.id },
        body: { muted: !muted },
      })
      setMuted(state.muted)
      void revalidator.revalidate()
    } catch {
      setProblem('通知の設定を変更できませんでした。')
    }
  }

  return (
    <div className="mt-4 flex flex-col gap-3">
      <div className="flex justify-end">
        <button
          type="button"
          aria-pressed={muted}
          onClick={() => void toggleMuted()}
          className="rounded-md px-2 py-1 text-sm text-slate-700 underline hover:no-underline dark:text-slate-300"
          data-mute-button
        >
          {muted ? '通知オフ中（オンにする）' : 'このルームの通知をオフにする'}
        </button>
      </div>
      <div
        ref={listRef}
        role="log"
        aria-label="メッセージ"
        // Scrollable, so reachable by keyboard (axe: scrollable-region-focusable). Positioned, so
        // that it contains the visually hidden text of its messages: otherwise those sit where
        // the scrolled content would be, below the page, and stretch it.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus
        tabIndex={0}
        onScroll={(event) => {
          if (event.currentTarget.scrollTop < OLDER_PX) void loadOlder()
        }}
        className="relative h-[60vh] min-h-72 overflow-y-auto rounded-xl border border-slate-200 p-3 focus:outline-none focus-visible:ring-3 focus-visible:ring-brand-500/40 sm:p-4 dark:border-slate-800"
        data-message-list
      >
        {hasOlder && (
          <div className="mb-3 text-center">
            <button
              type="button"
              onClick={() => void loadOlder()}
              className="rounded-md px-3 py-1.5 text-sm text-brand-700 hover:bg-slate-100 dark:text-sky-300 dark:hover:bg-slate-800"
            >
              {loadingOlder ? '読み込み中…' : '以前のメッセージを読み込む'}
            </button>
          </div>
        )}
        {messages.length === 0 ? (
          <p className="py-10 text-center text-slate-600 dark:text-slate-400">
            まだメッセージはありません。最初のメッセージを送ってみましょう。
          </p>
        ) : (
          <ol className="flex flex-col gap-3">
            {messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                mine={message.sender === me}
                read={message.id === lastReadOfMine}
                editable={
                  message.sender === me &&
                  !message.deleted &&
                  !message.hidden &&
                  now < message.editableUntil
                }
                onChanged={(changed) => receive([changed], false)}
              />
            ))}
          </ol>
        )}
      </div>
      <p aria-live="polite" className="min-h-5 text-sm text-slate-600 dark:text-slate-400">
        {typingUntil > 0 ? `${room.other.displayName}さんが入力中…` : ''}
      </p>
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <Composer roomId={room.id} onSent={(message) => receive([message], true)} />
    </div>
  )
}

function MessageItem(props: {
  message: MessageView
  mine: boolean
  read: boolean
  editable: boolean
  onChanged(message: MessageView): void
}) {
  const { message, mine } = props
  const { apiGatewayUrl } = useSettings()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(message.body)
  const [error, setError] = useState<string | null>(null)
  const id = useId()
  const [confirm, confirmDialog] = useConfirm()

  async function save(event: FormEvent) {
    event.preventDefault()
    try {
      props.onChanged(
        await callApi(apiGatewayUrl, 'messages.edit', {
          params: { messageId: message.id },
          body: { body: draft },
        }),
      )
      setEditing(false)
      setError(null)
    } catch (caught) {
      setError(errorText(caught, 'メッセージを保存できませんでした。'))
    }
  }

  async function remove() {
    const ok = await confirm({
      title: 'このメッセージを削除しますか？',
      body: '相手の画面からも消えます。',
      confirmLabel: '削除する',
    })
    if (!ok) return
    try {
      props.onChanged(
        await callApi(apiGatewayUrl, 'messages.remove', { params: { messageId: message.id } }),
      )
    } catch (caught) {
      setError(errorText(caught, 'メッセージを削除できませんでした。'))
    }
  }

  return (
    <li
      data-seq={mine ? undefined : message.seq}
      data-message={message.id}
      className={`flex flex-col gap-1 ${mine ? 'items-end' : 'items-start'}`}
    >
      {confirmDialog}
      <div
        className={`max-w-[85%] rounded-2xl px-3.5 py-2 ${
          message.deleted || (message.hidden && !mine)
            ? 'border border-dashed border-slate-300 text-slate-600 italic dark:border-slate-700 dark:text-slate-400'
            : mine
              ? 'bg-brand-700 text-white'
              : 'bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-slate-100'
        }`}
      >
        {message.deleted ? (
          <p>メッセージは削除されました</p>
        ) : message.hidden && !mine ? (
          <p>このメッセージは運営により非表示になりました</p>
        ) : editing ? (
          <form onSubmit={save} className="flex flex-col gap-2">
            <label htmlFor={`${id}-edit`} className="sr-only">
              メッセージを編集
            </label>
            <textarea
              id={`${id}-edit`}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              maxLength={MESSAGE_MAX_LENGTH}
              rows={3}
              className="w-72 max-w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-900"
            />
            <span className="flex justify-end gap-2">
              <button
                type="button"
                onClick={() => {
                  setEditing(false)
                  setDraft(message.body)
                }}
                className="rounded-md px-2 py-1 text-sm underline"
              >
                キャンセル
              </button>
              <button
                type="submit"
                className="rounded-md bg-white px-3 py-1 text-sm font-semibold text-brand-700"
              >
                保存
              </button>
            </span>
          </form>
        ) : (
          <MessageText text={message.body} />
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
        <time dateTime={new Date(message.createdAt).toISOString()}>
          {formatDateTime(message.createdAt)}
        </time>
        {message.editedAt !== null && !message.deleted && <span>編集済み</span>}
        {message.hidden && mine && (
          <span data-moderation-hidden className="font-semibold text-amber-800 dark:text-amber-300">
            運営により非表示（理由: {message.hiddenReason}）。相手には表示されていません
          </span>
        )}
        {!mine && !message.deleted && !message.hidden && (
          <ReportButton kind="message" id={message.id} className="underline hover:no-underline" />
        )}
        {props.read && <span data-read-marker>既読</span>}
        {props.editable && !editing && (
          <>
            <button
              type="button"
              onClick={() => {
                setDraft(message.body)
                setEditing(true)
              }}
              className="underline hover:no-underline"
            >
              編集
            </button>
            <button
              type="button"
              onClick={() => void remove()}
              className="underline hover:no-underline"
            >
              削除
            </button>
          </>
        )}
      </div>
      {error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </li>
  )
}

/** The box a message is written in: sent with the button or Ctrl/⌘ + Enter (Enter is a new line). */
function Composer({ roomId, onSent }: { roomId: string; onSent(message: MessageView): void }) {
  const { apiGatewayUrl } = useSettings()
  const [body, setBody] = useState('')
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const lastTyping = useRef(0)
  const id = useId()

  async function send(event?: FormEvent) {
    event?.preventDefault()
    if (sending) return
    if (body.trim() === '') {
      setError('メッセージを入力してください')
      return
    }
    setSending(true)
    try {
      const message = await callApi(apiGatewayUrl, 'messages.send', {
        params: { roomId },
        body: { body },
      })
      setBody('')
      setError(null)
      onSent(message)
    } catch (caught) {
      setError(errorText(caught, 'メッセージを送れませんでした。もう一度お試しください。'))
    } finally {
      setSending(false)
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send()
  }

  function onType(value: string) {
    setBody(value)
    const now = Date.now()
    if (now - lastTyping.current < TYPING_THROTTLE_MS) return
    lastTyping.current = now
    void callApi(apiGatewayUrl, 'messages.typing', { params: { roomId } }).catch(() => {})
  }

  return (
    <form onSubmit={send} className="flex flex-col gap-1" noValidate>
      <label htmlFor={`${id}-body`} className="text-sm font-semibold">
        メッセージ
      </label>
      <div className="flex items-end gap-2">
        <textarea
          id={`${id}-body`}
          name="body"
          value={body}
          onChange={(event) => onType(event.target.value)}
          onKeyDown={onKeyDown}
          maxLength={MESSAGE_MAX_LENGTH}
          rows={2}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint ${id}-error`}
          className="block min-h-12 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-3 focus:ring-brand-500/30 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        />
        <button
          type="submit"
          aria-disabled={sending || undefined}
          className="min-h-11 rounded-lg bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700 aria-disabled:opacity-80"
        >
          {sending ? '送信中…' : '送信'}
        </button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
        {`Ctrl（⌘）+ Enter でも送信できます。${MESSAGE_MAX_LENGTH.toLocaleString('ja-JP')}文字まで（${body.length.toLocaleString('ja-JP')}文字）`}
      </p>
      <p
        id={`${id}-error`}
        role={error ? 'alert' : undefined}
        className="text-sm text-red-700 dark:text-red-300"
      >
        {error}
      </p>
    </form>
  )
}
