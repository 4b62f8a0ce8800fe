import { Outlet } from 'react-router'
import { SiteFooter } from '#app/components/site-footer.tsx'
import { SiteHeader } from '#app/components/site-header.tsx'
import { useCurrentUser, useSettings } from '#app/lib/root-data.ts'

/** The `default` layout: public header and footer around reading pages. */
export default function DefaultLayout() {
  const { siteTitle } = useSettings()
  const user = useCurrentUser()
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader siteTitle={siteTitle} user={user} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        <Outlet />
      </main>
      <SiteFooter siteTitle={siteTitle} />
    </div>
  )
}
