import { Component, type ReactNode, Suspense } from 'react'
import { isRouteErrorResponse, useRouteError } from 'react-router'

/** The seed's error page: its texts are kept verbatim, in English. */
export const ERROR_TEXTS = {
  notFound: 'This page could not be found',
  backHome: 'Back to the home page',
  errorPageFailed: 'An error occurred while showing the error page',
  defaultMessage: 'Error',
  defaultStatus: 500,
} as const

/** What happened, in Japanese first: the seed's English line follows it. */
export function japaneseExplanation(status: number): { title: string; detail: string } {
  if (status === 404) {
    return {
      title: 'ページが見つかりません',
      detail:
        'URL が正しいか確かめてください。ページが削除されたか、非公開になった可能性があります。',
    }
  }
  if (status === 403) {
    return {
      title: 'このページを見る権限がありません',
      detail: '別のアカウントでログインしているか、このページは作成者だけが見られます。',
    }
  }
  if (status === 401) {
    return { title: 'ログインが必要です', detail: 'ログインしてから、もう一度開いてください。' }
  }
  if (status >= 400 && status < 500) {
    return {
      title: 'リクエストを処理できませんでした',
      detail: '入力やリンクを確かめて、もう一度お試しください。',
    }
  }
  return {
    title: 'エラーが発生しました',
    detail: '時間をおいて、もう一度お試しください。続く場合はお問い合わせください。',
  }
}

/**
 * The error page's content; `inLayout` when a route's own error boundary shows it inside the
 * layout's <main> (header and footer stay), so it is not a second main landmark.
 */
export function ErrorPage({
  status,
  message,
  inLayout = false,
}: {
  status: number
  message: string
  inLayout?: boolean
}) {
  const text = status === 404 ? ERROR_TEXTS.notFound : message || ERROR_TEXTS.defaultMessage
  const explanation = japaneseExplanation(status)
  const Landmark = inLayout ? 'div' : 'main'
  return (
    <Landmark
      id={inLayout ? undefined : 'main'}
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col items-center justify-center gap-4 px-4 py-24 text-center"
    >
      <p className="text-6xl font-bold text-brand-600 dark:text-brand-100" aria-hidden="true">
        {status}
      </p>
      <h1 className="text-xl font-semibold">{explanation.title}</h1>
      <p className="text-slate-700 dark:text-slate-300">{explanation.detail}</p>
      <p lang="en" className="text-sm text-slate-600 dark:text-slate-400">
        {text}
      </p>
      <a href="/" className="rounded-md bg-brand-600 px-4 py-2 text-white hover:bg-brand-700">
        ホームに戻る<span className="sr-only"> / </span>
        <span lang="en" className="ml-2 text-sm opacity-90">
          {ERROR_TEXTS.backHome}
        </span>
      </a>
    </Landmark>
  )
}

/** The status and the seed's message line of whatever a loader or render threw. */
export function describeRouteError(error: unknown): { status: number; message: string } {
  const status = isRouteErrorResponse(error) ? error.status : ERROR_TEXTS.defaultStatus
  const message =
    isRouteErrorResponse(error) && status !== 404
      ? error.statusText || ERROR_TEXTS.defaultMessage
      : ERROR_TEXTS.defaultMessage
  return { status, message }
}

/**
 * A content page's own error boundary: the error inside the site's layout, so the header and
 * navigation stay usable (the root boundary is for errors outside any page).
 */
export function ContentErrorBoundary() {
  const error = useRouteError()
  const { status, message } = describeRouteError(error)
  if (status >= 500 && !isRouteErrorResponse(error)) console.error(error)
  return <ErrorPage status={status} message={message} inLayout />
}

function ErrorPageFailure() {
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-24 text-center">
      <h1 className="text-xl font-semibold">{ERROR_TEXTS.errorPageFailed}</h1>
      <p className="mt-4">
        <a href="/" className="underline">
          {ERROR_TEXTS.backHome}
        </a>
      </p>
    </main>
  )
}

/**
 * Keeps a broken error page from leaving a blank screen. On the server, React renders the
 * Suspense fallback when its children throw; in the browser, the class boundary catches.
 */
export function ErrorPageGuard({ children }: { children: ReactNode }) {
  return (
    <FailureBoundary>
      <Suspense fallback={<ErrorPageFailure />}>{children}</Suspense>
    </FailureBoundary>
  )
}

class FailureBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override render() {
    return this.state.failed ? <ErrorPageFailure /> : this.props.children
  }
}
