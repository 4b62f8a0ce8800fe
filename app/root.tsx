import { useContext } from 'react'
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  UNSAFE_FrameworkContext,
  useRouteLoaderData,
} from 'react-router'
import { countUnreadMessages } from '#features/messages/unread.server.ts'
import { countUnreadNotifications } from '#features/social/notifications.server.ts'
import { findProfile } from '#features/users/profiles.server.ts'
import type { Route } from './+types/root'
import stylesheet from './app.css?url'
import { ChunkReloadGuard } from './components/chunk-reload-guard.tsx'
import { describeRouteError, ErrorPage, ErrorPageGuard } from './components/error-page.tsx'
import { LoadingBar } from './components/loading-bar.tsx'
import { NetworkStatus } from './components/network-status.tsx'
import { SessionKeeper } from './components/session-keeper.tsx'
import { SiteFooter } from './components/site-footer.tsx'
import { SiteHeader } from './components/site-header.tsx'
import { provideIdentitySettings } from './lib/auth/identity-settings.ts'
import { errorMeta } from './lib/meta.ts'
import { publicObjectUrl } from './lib/storage/storage-settings.ts'
import { THEME_SCRIPT } from './lib/theme.ts'
import './lib/zod-without-eval.ts'

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ context, request }: Route.LoaderArgs) {
  const session = await context.auth.currentUser(request)
  const profile = session && (await findProfile(context.db, session.username))
  return {
    settings: context.settings,
    identity: context.auth.client,
    storage: context.storage.client,
    user: session
      ? {
          username: session.username,
          displayName: profile?.displayName ?? session.username,
          avatarUrl: profile?.avatarKey
            ? publicObjectUrl(context.storage.client, profile.avatarKey)
            : null,
          email: session.email ?? null,
          groups: session.groups,
          unreadNotifications: await countUnreadNotifications(context.db, session.sub),
          unreadMessages: await countUnreadMessages(context.db, session.sub),
          issuedAt: session.issuedAt,
          expiresAt: session.expiresAt,
        }
      : null,
  }
}

export const meta: Route.MetaFunction = ({ error, matches }) =>
  error === undefined ? [] : errorMeta(matches, error)

/**
 * The theme before the first paint (app/lib/theme.ts). Inline, with this response's CSP nonce,
 * which the browser hides after parsing: the client renders it without one.
 */
function ThemeScript() {
  const nonce = useContext(UNSAFE_FrameworkContext)?.nonce
  return (
    <script
      nonce={nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant, no input in it
      dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }}
    />
  )
}

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    // The head's theme script sets data-theme before React hydrates.
    <html lang="ja" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <ThemeScript />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  )
}

export default function App({ loaderData }: Route.ComponentProps) {
  // Before any child renders, so that every screen finds Amplify's settings in place.
  if (typeof window !== 'undefined') provideIdentitySettings(loaderData.identity)
  return (
    <>
      <SessionKeeper
        sessionCookie={loaderData.identity.sessionCookie}
        issuedAt={loaderData.user?.issuedAt}
        expiresAt={loaderData.user?.expiresAt}
      />
      <LoadingBar />
      <NetworkStatus />
      <ChunkReloadGuard />
      <Outlet />
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRouteLoaderData<typeof loader>('root')
  const { status, message } = describeRouteError(error)
  if (status >= 500 && !isRouteErrorResponse(error)) console.error(error)
  return (
    <ErrorPageGuard>
      <LoadingBar />
      <NetworkStatus />
      <div className="flex min-h-dvh flex-col">
        <SiteHeader siteTitle={root?.settings.siteTitle} user={root?.user ?? null} />
        <ErrorPage status={status} message={message} />
        <SiteFooter siteTitle={root?.settings.siteTitle} />
      </div>
    </ErrorPageGuard>
  )
}
