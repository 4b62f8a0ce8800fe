import { useEffect, useId, useRef, useState } from 'react'
import { loadUploader } from '#app/lib/storage/load-uploader.ts'
import {
  type AccessLevel,
  type ClientStorageSettings,
  objectKey,
} from '#app/lib/storage/storage-settings.ts'
import type {
  ResumeStore,
  UploadProgress,
  UploadState,
  UploadTask,
} from '#app/lib/storage/upload-task.ts'
import { FormMessage } from './forms.tsx'

type FileUploadProps = {
  settings: ClientStorageSettings
  level: AccessLevel
  label: string
  /** MIME types accepted, e.g. `image/png`. */
  accept: readonly string[]
  maxBytes: number
  /**
   * The file's name under its access level (the identity id is added where the level needs it;
   * public names may start with it to mark the uploader's own folder).
   */
  nameFor(file: File, identityId: string): string
  onUploaded(upload: { key: string; file: File }): void
  /**
   * What the file's first bytes must be, checked before upload: a renamed file declares the
   * type of its name, not of its content.
   */
  contentCheck?: { bytes: number; accepts(start: Uint8Array): boolean; refusal: string }
  /**
   * The server's word on the uploaded object, before `onUploaded` takes it: a refusal (in
   * Japanese) keeps it out of the form.
   */
  verify?(key: string): Promise<string | undefined>
  /**
   * Several files may be picked at once, up to this many (the rest are left out, with a
   * message); they upload one after another. Unset: one file at a time; 0: none now (full).
   */
  maxFiles?: number
}

type Running = { task: UploadTask; file: File; state: UploadState; progress: UploadProgress }

/**
 * Picks a file, checks its type and size, and uploads it to object storage with progress,
 * pause, resume and cancel. Parts of a paused upload survive a reload of the page.
 */
export function FileUpload(props: FileUploadProps) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [running, setRunning] = useState<Running>()
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string }>()
  const [queued, setQueued] = useState(false)
  const [dragging, setDragging] = useState(false)
  const { settings, level, accept, maxBytes, nameFor, onUploaded, maxFiles, contentCheck, verify } =
    props

  useEffect(() => () => running?.task.pause(), [running?.task])

  /** Uploads the picked files one after another; says what happened to each. */
  async function startAll(files: File[]) {
    if (files.length === 1 && files[0]) {
      await start(files[0])
      return
    }
    const taken = files.slice(0, maxFiles ?? 1)
    const results: { name: string; ok: boolean; text: string }[] = []
    setQueued(true)
    try {
      for (const file of taken) {
        const outcome = await start(file)
        results.push({ name: file.name, ok: outcome.ok, text: outcome.text })
      }
    } finally {
      setQueued(false)
    }
    const uploaded = results.filter((result) => result.ok).map((result) => result.name)
    const problems = results.filter((result) => !result.ok)
    const lines = [
      uploaded.length > 0 ? `${uploaded.join('、')} をアップロードしました。` : '',
      ...problems.map((problem) => `${problem.name}: ${problem.text}`),
      files.length > taken.length
        ? `ここに追加できるのはあと ${taken.length} 件まででした。残りの ${files.length - taken.length} 件（${files
            .slice(taken.length)
            .map((file) => file.name)
            .join('、')}）は追加していません。`
        : '',
    ].filter(Boolean)
    setMessage({
      tone: problems.length > 0 || files.length > taken.length ? 'error' : 'success',
      text: lines.join(' '),
    })
  }

  /** Uploads one file; resolves when it has finished, failed or been cancelled. */
  function start(file: File): Promise<{ ok: boolean; text: string }> {
    return new Promise((resolve) => void upload(file, resolve))
  }

  async function upload(file: File, finished: (outcome: { ok: boolean; text: string }) => void) {
    const fail = (text: string) => {
      setMessage({ tone: 'error', text })
      finished({ ok: false, text })
    }
    setMessage(undefined)
    const refusal = fileRefusal(file, accept, maxBytes)
    if (refusal) {
      fail(refusal)
      return
    }
    if (contentCheck) {
      const start = new Uint8Array(await file.slice(0, contentCheck.bytes).arrayBuffer())
      if (!contentCheck.accepts(start)) {
        fail(contentCheck.refusal)
        return
      }
    }
    let task: UploadTask
    try {
      const uploader = await loadUploader()
      const identityId = await uploader.currentIdentityId()
      const key = objectKey(settings.prefixes, level, identityId, nameFor(file, identityId))
      task = new uploader.UploadTask({
        client: uploader.browserS3Client(settings),
        bucket: settings.bucket,
        key,
        level,
        file,
        resumeStore: localResumeStore(),
      })
      const update = () => setRunning({ task, file, state: task.state, progress: task.progress })
      task.on('stateChange', update)
      task.on('uploadPartProgress', update)
      task.on('uploadComplete', async () => {
        const refused = await verify?.(key).catch(() => uploadErrorMessage(new Error()))
        if (refused) {
          fail(refused)
          return
        }
        const text = `${file.name} をアップロードしました。`
        setMessage({ tone: 'success', text })
        onUploaded({ key, file })
        finished({ ok: true, text })
      })
      task.on('cancel', () => {
        const text = 'アップロードを取り消しました。'
        setMessage({ tone: 'success', text })
        finished({ ok: false, text })
      })
      task.on('error', (error) => fail(uploadErrorMessage(error)))
      update()
    } catch (error) {
      fail(uploadErrorMessage(error))
      return
    }
    task.start()
  }

  const full = maxFiles === 0
  const busy = queued || running?.state === 'IN_PROGRESS' || running?.state === 'PAUSED'
  return (
    <div className="space-y-3">
      <div>
        <label htmlFor={id} className="block text-sm font-medium">
          {props.label}
        </label>
        <p id={`${id}-hint`} className="text-sm text-slate-600 dark:text-slate-400">
          {full
            ? '上限まで追加しました。外すと、また追加できます。'
            : `${acceptedTypesLabel(accept)}（${formatBytes(maxBytes)} まで）`}
        </p>
        {/* The browser's own control says "Choose File" in its own language: the input is
            kept (focusable, for keyboards and screen readers) but shown as a Japanese button in
            a zone that files can also be dropped on. */}
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop zone's click only forwards to the input, which keyboards reach */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the input inside takes the keys */}
        <div
          data-drop-zone={dragging ? 'over' : ''}
          onClick={(event) => {
            if (event.target !== input.current) input.current?.click()
          }}
          onDragOver={(event) => {
            if (busy || full) return
            event.preventDefault()
            setDragging(true)
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault()
            setDragging(false)
            const files = [...event.dataTransfer.files]
            if (!busy && !full && files.length > 0) void startAll(files)
          }}
          className={`relative mt-1 flex flex-wrap items-center gap-3 rounded-lg border-2 border-dashed px-4 py-3 text-sm has-focus-visible:outline-3 has-focus-visible:outline-brand-500 ${
            busy || full ? 'cursor-not-allowed opacity-60' : 'cursor-pointer'
          } ${
            dragging
              ? 'border-brand-600 bg-brand-50 dark:bg-slate-800'
              : 'border-slate-300 dark:border-slate-600'
          }`}
        >
          <input
            ref={input}
            id={id}
            type="file"
            accept={accept.join(',')}
            multiple={(maxFiles ?? 1) > 1}
            disabled={busy || full}
            aria-describedby={`${id}-hint`}
            className="sr-only"
            onChange={(event) => {
              const files = [...(event.currentTarget.files ?? [])]
              if (files.length > 0) void startAll(files)
              event.currentTarget.value = ''
            }}
          />
          <span
            aria-hidden="true"
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-semibold text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          >
            ファイルを選ぶ
          </span>
          <span aria-hidden="true" className="text-slate-600 dark:text-slate-400">
            またはここにドラッグ＆ドロップ
          </span>
        </div>
      </div>
      {running && busy ? (
        <div className="space-y-2" aria-live="polite">
          <p className="text-sm">
            {running.file.name}：{running.progress.percent}%（
            {formatBytes(running.progress.loaded)} / {formatBytes(running.progress.total)}）
            {running.state === 'PAUSED' ? ' 一時停止中' : ''}
          </p>
          <progress
            className="h-2 w-full"
            max={100}
            value={running.progress.percent}
            aria-label={`${running.file.name} のアップロード`}
          />
          <div className="flex gap-2">
            {running.state === 'PAUSED' ? (
              <UploadButton onClick={() => running.task.resume()}>再開</UploadButton>
            ) : (
              <UploadButton onClick={() => running.task.pause()}>一時停止</UploadButton>
            )}
            <UploadButton onClick={() => void running.task.cancel()}>キャンセル</UploadButton>
          </div>
        </div>
      ) : null}
      {message ? <FormMessage tone={message.tone}>{message.text}</FormMessage> : null}
    </div>
  )
}

function UploadButton(props: { onClick(): void; children: string }) {
  return (
    <button
      type="button"
      onClick={props.onClick}
      className="rounded border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 dark:border-slate-600 dark:hover:bg-slate-800"
    >
      {props.children}
    </button>
  )
}

/** Why a file cannot be uploaded here, in Japanese, or undefined when it can. */
export function fileRefusal(
  file: Pick<File, 'type' | 'size'>,
  accept: readonly string[],
  maxBytes: number,
): string | undefined {
  if (!accept.includes(file.type)) {
    return `このファイルの種類はアップロードできません。${acceptedTypesLabel(accept)}を選んでください。`
  }
  if (file.size === 0) return '空のファイルはアップロードできません。'
  if (file.size > maxBytes) {
    return `ファイルが大きすぎます。${formatBytes(maxBytes)} 以下のファイルを選んでください。`
  }
  return undefined
}

function acceptedTypesLabel(accept: readonly string[]): string {
  return accept.map((type) => (type.split('/')[1] ?? type).toUpperCase()).join('・')
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function uploadErrorMessage(error: unknown): string {
  const name = (error as { name?: string }).name
  if (name === 'CanceledError') {
    return 'アップロードを取り消しましたが、途中までのデータを削除できませんでした。時間をおいて、もう一度お試しください。'
  }
  if (name === 'AccessDenied' || name === 'Forbidden') {
    return 'この場所にアップロードする権限がありません。ログインし直してからお試しください。'
  }
  if (error instanceof Error && error.message === 'No credentials') {
    return 'アップロードにはログインが必要です。'
  }
  if (error instanceof TypeError) {
    return 'サーバーに接続できませんでした。ネットワークを確認してからもう一度お試しください。'
  }
  return 'アップロードに失敗しました。もう一度お試しください。'
}

const RESUME_PREFIX = 'techlab.upload.'

/** Upload ids of unfinished uploads by file id, so a paused upload resumes after a reload. */
function localResumeStore(): ResumeStore | undefined {
  try {
    const storage = window.localStorage
    return {
      get: (fileId) => storage.getItem(RESUME_PREFIX + fileId),
      set: (fileId, uploadId) => storage.setItem(RESUME_PREFIX + fileId, uploadId),
      delete: (fileId) => storage.removeItem(RESUME_PREFIX + fileId),
    }
  } catch {
    return undefined
  }
}
