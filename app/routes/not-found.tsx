import { data } from 'react-router'

/**
 * Catches every address no other route matches. Without it React Router would run no loader
 * at all, and the error page could not show the configured site title.
 */
export async function loader() {
  throw data(null, { status: 404, statusText: 'Not Found' })
}

// Never rendered (the loader always throws); it makes this a page route, not a resource route.
export default function NotFound() {
  return null
}
