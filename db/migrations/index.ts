import type { Migration } from 'kysely'
import * as usersAndCourses from './2026-11-22-0001-users-and-courses.ts'
import * as identityAndMail from './2026-11-22-0002-identity-and-mail.ts'
import * as userPoolSignIn from './2026-11-22-0003-user-pool-sign-in.ts'
import * as userPoolMfa from './2026-11-22-0004-user-pool-mfa.ts'
import * as userPoolDevices from './2026-11-23-0005-user-pool-devices.ts'
import * as federatedSignIn from './2026-11-23-0006-federated-sign-in.ts'
import * as objectStore from './2026-11-23-0007-object-store.ts'
import * as userAvatars from './2026-11-23-0008-user-avatars.ts'
import * as learningContent from './2026-11-23-0009-learning-content.ts'
import * as contentSearch from './2026-11-23-0010-content-search.ts'
import * as labStoryCover from './2026-11-23-0011-lab-story-cover.ts'
import * as likesCommentsNotifications from './2026-11-23-0012-likes-comments-notifications.ts'
import * as followsAndProfiles from './2026-11-23-0013-follows-and-profiles.ts'
import * as objectPartFiles from './2026-11-23-0014-object-part-files.ts'
import * as objectUploadIds from './2026-11-25-0015-object-upload-ids.ts'
import * as renderedMarkdown from './2026-11-25-0016-rendered-markdown.ts'
import * as contactMessages from './2026-11-25-0021-contact-messages.ts'
import * as exercises from './2026-11-25-0022-exercises.ts'
import * as directMessages from './2026-11-25-0023-direct-messages.ts'
import * as subscriptions from './2026-11-25-0025-subscriptions.ts'
import * as moderation from './2026-11-26-0026-moderation.ts'
import * as stripeEventOrder from './2026-11-26-0027-stripe-event-order.ts'
import * as pendingRevisions from './2026-11-28-0030-pending-revisions.ts'

/**
 * Every migration, in order. Listed statically rather than read from the folder so the same
 * list works when run by Node directly and when bundled.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22-0001-users-and-courses': usersAndCourses,
  '2026-11-22-0002-identity-and-mail': identityAndMail,
  '2026-11-22-0003-user-pool-sign-in': userPoolSignIn,
  '2026-11-22-0004-user-pool-mfa': userPoolMfa,
  '2026-11-23-0005-user-pool-devices': userPoolDevices,
  '2026-11-23-0006-federated-sign-in': federatedSignIn,
  '2026-11-23-0007-object-store': objectStore,
  '2026-11-23-0008-user-avatars': userAvatars,
  '2026-11-23-0009-learning-content': learningContent,
  '2026-11-23-0010-content-search': contentSearch,
  '2026-11-23-0011-lab-story-cover': labStoryCover,
  '2026-11-23-0012-likes-comments-notifications': likesCommentsNotifications,
  '2026-11-23-0013-follows-and-profiles': followsAndProfiles,
  '2026-11-23-0014-object-part-files': objectPartFiles,
  '2026-11-25-0015-object-upload-ids': objectUploadIds,
  '2026-11-25-0016-rendered-markdown': renderedMarkdown,
  '2026-11-25-0021-contact-messages': contactMessages,
  '2026-11-25-0022-exercises': exercises,
  '2026-11-25-0023-direct-messages': directMessages,
  '2026-11-25-0025-subscriptions': subscriptions,
  '2026-11-26-0026-moderation': moderation,
  '2026-11-26-0027-stripe-event-order': stripeEventOrder,
  '2026-11-28-0030-pending-revisions': pendingRevisions,
}
