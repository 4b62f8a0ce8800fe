import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely'

/** Milliseconds since the Unix epoch: one representation on SQLite and PostgreSQL alike. */
export type EpochMs = number

export interface UsersTable {
  id: string
  username: string
  display_name: string
  bio: ColumnType<string, string | undefined, string>
  /** A public object in the site's bucket; see features/users/avatars.server.ts. */
  avatar_key: ColumnType<string | null, string | null | undefined, string | null>
  /** Added by migration 0013: a JSON array of the profile's link URLs. */
  links: Defaulted<string>
  /** Added by migration 0013: the IANA zone /histories counts days in (default Asia/Tokyo). */
  time_zone: Defaulted<string>
  /** Added by migration 0023: 1 when the user wants an e-mail digest of unread messages. */
  dm_digest: Defaulted<Flag>
  /** Added by migration 0023: when a digest was last considered for the user (claims a period). */
  dm_digest_at: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>
  /** Added by migration 0026: when an admin suspended the account (null: not suspended). */
  suspended_at: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>
  created_at: EpochMs
  updated_at: EpochMs
}

export type CourseLevel = 'beginner' | 'intermediate' | 'advanced'
export type CourseAccess = 'free' | 'premium'
export type PublicationStatus = 'draft' | 'published'

export interface CoursesTable {
  id: string
  owner_id: string
  title: string
  summary: string
  level: CourseLevel
  access: CourseAccess
  status: PublicationStatus
  published_at: EpochMs | null
  created_at: EpochMs
  updated_at: EpochMs
  /** Added by migration 0009: the cover image, a public object in the site's bucket. */
  cover_key: ColumnType<string | null, string | null | undefined, string | null>
  /** Added by migration 0009: bumped by every save, so a stale editor cannot overwrite. */
  revision: Defaulted<number>
  /** Added by migration 0026: when moderation hid it from everyone but its author (null: shown). */
  hidden_at: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>
  /** Added by migration 0026: the reason its author is told. */
  hidden_reason: ColumnType<string | null, string | null | undefined, string | null>
}

/** Columns every content kind shares (migration 0009): owner, draft/publish state, revision. */
interface PublishableColumns {
  id: string
  owner_id: string
  title: string
  status: PublicationStatus
  published_at: EpochMs | null
  revision: Defaulted<number>
  created_at: EpochMs
  updated_at: EpochMs
  /** Added by migration 0026: when moderation hid it from everyone but its author (null: shown). */
  hidden_at: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>
  /** Added by migration 0026: the reason its author is told. */
  hidden_reason: ColumnType<string | null, string | null | undefined, string | null>
}

export interface CourseSectionsTable {
  id: string
  course_id: string
  title: string
  /** Order within the course; reordering rewrites the positions of the course's sections. */
  position: number
  created_at: EpochMs
  updated_at: EpochMs
}

export interface LessonsTable {
  id: string
  course_id: string
  section_id: string
  title: string
  /** Markdown. */
  body: Defaulted<string>
  access: CourseAccess
  /** Order within the section. */
  position: number
  revision: Defaulted<number>
  created_at: EpochMs
  updated_at: EpochMs
}

export interface LessonProgressTable {
  user_id: string
  lesson_id: string
  course_id: string
  done_at: EpochMs
}

export interface StudiesTable extends PublishableColumns {
  summary: Defaulted<string>
  /** The study's notes, Markdown. */
  body: Defaulted<string>
}

export interface LabsTable extends PublishableColumns {
  description: Defaulted<string>
  repository_url: string | null
  demo_url: string | null
}

export interface LabScreenshotsTable {
  lab_id: string
  object_key: string
  position: number
}

export interface LabStoriesTable extends PublishableColumns {
  lab_id: string | null
  /** Markdown. */
  body: Defaulted<string>
  /** Added by migration 0011: the cover image, a public object its author uploaded. */
  cover_key: ColumnType<string | null, string | null | undefined, string | null>
}

export interface TagsTable {
  id: string
  /** Normalised (features/tags/normalize.ts): one tag whatever width or case it was typed in. */
  name: string
  created_at: EpochMs
}

/** One link table per content kind, so deleting the item deletes its links (foreign keys). */
export interface TagLinksTable {
  subject_id: string
  tag_id: string
  /** The order the author gave the tags. */
  position: number
}

export type ContentKind = 'course' | 'study' | 'lab' | 'lab_story'
/** `exercise_solved` added by migration 0022: a learner's first correct answer to a question. */
export type HistoryEventKind = 'lesson_done' | 'published' | 'exercise_solved'

export interface HistoryEventsTable {
  id: string
  user_id: string
  kind: HistoryEventKind
  subject_kind: ContentKind | 'lesson' | 'question'
  subject_id: string
  at: EpochMs
}

/** Added by migration 0012: one row per (user, item) liked. */
export interface LikesTable {
  user_id: string
  subject_kind: ContentKind
  subject_id: string
  created_at: EpochMs
}

/** Added by migration 0012: Markdown comments on an item; replies name their parent. */
export interface CommentsTable {
  id: string
  subject_kind: ContentKind
  subject_id: string
  parent_id: string | null
  /** Null once the author's account is deleted. */
  author_id: string | null
  body: string
  created_at: EpochMs
  updated_at: EpochMs
  /** Added by migration 0026: when moderation hid it from everyone but its author (null: shown). */
  hidden_at: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>
  /** Added by migration 0026: the reason its author is told. */
  hidden_reason: ColumnType<string | null, string | null | undefined, string | null>
}

export type NotificationKind = 'follow' | 'like' | 'comment' | 'reply'

/** Added by migration 0012: what happened to a user's content or account, unread until seen. */
export interface NotificationsTable {
  id: string
  recipient_id: string
  kind: NotificationKind
  actor_id: string
  subject_kind: ContentKind | null
  subject_id: string | null
  comment_id: string | null
  created_at: EpochMs
  read_at: EpochMs | null
}

/** Added by migration 0013: `follower_id` follows `followee_id`; one row per pair. */
export interface FollowsTable {
  id: string
  follower_id: string
  followee_id: string
  created_at: EpochMs
}

/** What `rendered_markdown` holds the HTML of. */
export type RenderedKind =
  | 'lesson'
  | 'study'
  | 'lab'
  | 'lab_story'
  | 'comment'
  | 'question_prompt'
  | 'question_explanation'

/** Added by migration 0015: a text's Markdown rendered to sanitised HTML, while it is current. */
export interface RenderedMarkdownTable {
  subject_kind: RenderedKind
  subject_id: string
  source_hash: string
  renderer_version: number
  html: string
  rendered_at: EpochMs
}

export type QuestionKind = 'single' | 'multiple' | 'text' | 'code'

/** Added by migration 0022: one question of a study's exercise set, in the author's order. */
export interface QuestionsTable {
  id: string
  study_id: string
  /** Order within the study; reordering rewrites the positions of the study's questions. */
  position: number
  kind: QuestionKind
  /** Code questions only. */
  language: 'javascript' | 'python' | null
  /** Markdown. */
  prompt: string
  /** Markdown, shown after answering. */
  explanation: Defaulted<string>
  difficulty: CourseLevel
  access: CourseAccess
  /** JSON of the kind-specific part (features/exercises/question-input.ts `questionBody`). */
  body: string
  revision: Defaulted<number>
  created_at: EpochMs
  updated_at: EpochMs
}

/** Added by migration 0022: one answer a learner sent, as sent, with the server's verdict. */
export interface QuestionAttemptsTable {
  id: string
  user_id: string
  question_id: string
  question_revision: number
  /** JSON of `answerInput`. */
  answer: string
  verdict: 'correct' | 'incorrect'
  created_at: EpochMs
}

/** Added by migration 0022: a learner's status per question (a row once attempted). */
export interface QuestionProgressTable {
  user_id: string
  question_id: string
  study_id: string
  attempts: number
  /** The first correct answer; null while only attempted. */
  solved_at: EpochMs | null
  last_attempt_at: EpochMs
}

/** What a contact message is about (the form's 講座について / 不具合の報告 / お支払い / その他). */
export type ContactCategory = 'course' | 'bug' | 'payment' | 'other'
export type ContactStatus = 'new' | 'answered' | 'closed'

/** Added by migration 0021: a message sent through /contact. */
export interface ContactMessagesTable {
  id: string
  name: string
  email: string
  category: ContactCategory
  body: string
  user_id: string | null
  status: Defaulted<ContactStatus>
  created_at: EpochMs
  updated_at: EpochMs
}

/** Added by migration 0021: what an admin did to a contact message, and who and when. */
export interface ContactMessageEventsTable {
  id: string
  message_id: string
  actor_id: string
  actor_name: string
  kind: 'reply' | 'closed' | 'reopened'
  body: string | null
  created_at: EpochMs
}

/** Added by migration 0023: the one room of a pair of users (ids in order: low < high). */
export interface DmRoomsTable {
  id: string
  user_low: string
  user_high: string
  /** The room's change counter: each new, edited or deleted message takes the next number. */
  version: Defaulted<number>
  activity_at: EpochMs
  created_at: EpochMs
}

/** Added by migration 0023: a member of a room, with how far they have read. */
export interface DmMembersTable {
  room_id: string
  user_id: string
  read_seq: Defaulted<number>
  digested_seq: Defaulted<number>
  muted: Defaulted<Flag>
}

/** Added by migration 0023: a plain-text message; `seq` orders the room, `version` its changes. */
export interface DmMessagesTable {
  id: string
  room_id: string
  seq: number
  version: number
  sender_id: string
  body: string
  created_at: EpochMs
  edited_at: EpochMs | null
  deleted_at: EpochMs | null
  withheld: Defaulted<Flag>
  /** Added by migration 0026: when moderation hid it from everyone but its author (null: shown). */
  hidden_at: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>
  /** Added by migration 0026: the reason its author is told. */
  hidden_reason: ColumnType<string | null, string | null | undefined, string | null>
}

/** Added by migration 0023: `blocker_id` blocked `blocked_id` (who is not told). */
export interface UserBlocksTable {
  blocker_id: string
  blocked_id: string
  created_at: EpochMs
}

/** Added by migration 0026: what `subject_kind` a report or a moderation action names. */
export type ModerationSubjectKind = ContentKind | 'comment' | 'message' | 'user'
export type ReportReason =
  | 'spam'
  | 'harassment'
  | 'inappropriate'
  | 'copyright'
  | 'personal_info'
  | 'other'

/** Added by migration 0026: one user's report of one item; one open report per reporter and item. */
export interface ReportsTable {
  id: string
  reporter_id: string
  subject_kind: ModerationSubjectKind
  subject_id: string
  subject_user_id: string | null
  reason: ReportReason
  note: Defaulted<string>
  status: Defaulted<'open' | 'resolved'>
  created_at: EpochMs
  updated_at: EpochMs
  resolved_at: EpochMs | null
}

export type ModerationActionKind = 'hide' | 'unhide' | 'suspend' | 'unsuspend' | 'dismiss'

/** Added by migration 0026: every admin action on a reported item, with who and when. */
export interface ModerationActionsTable {
  id: string
  subject_kind: ModerationSubjectKind
  subject_id: string
  actor_id: string
  actor_name: string
  action: ModerationActionKind
  note: Defaulted<string>
  created_at: EpochMs
}

/** Kinds of content whose published version can wait for an edit to be published. */
export type PendingKind = 'course' | 'lesson' | 'study' | 'lab' | 'lab_story' | 'question'

/** An edit of a published item, waiting for 「更新する」 (decision 048). */
export interface PendingRevisionsTable {
  subject_kind: PendingKind
  subject_id: string
  owner_id: string
  /** The editor's fields as sent, as JSON. */
  fields: string
  created_at: EpochMs
  updated_at: EpochMs
}

export interface DB {
  users: UsersTable
  courses: CoursesTable
  course_sections: CourseSectionsTable
  lessons: LessonsTable
  lesson_progress: LessonProgressTable
  studies: StudiesTable
  labs: LabsTable
  lab_screenshots: LabScreenshotsTable
  lab_stories: LabStoriesTable
  tags: TagsTable
  course_tags: TagLinksTable
  study_tags: TagLinksTable
  lab_tags: TagLinksTable
  lab_story_tags: TagLinksTable
  questions: QuestionsTable
  question_tags: TagLinksTable
  question_attempts: QuestionAttemptsTable
  question_progress: QuestionProgressTable
  history_events: HistoryEventsTable
  likes: LikesTable
  comments: CommentsTable
  notifications: NotificationsTable
  follows: FollowsTable
  rendered_markdown: RenderedMarkdownTable
  contact_messages: ContactMessagesTable
  pending_revisions: PendingRevisionsTable
  contact_message_events: ContactMessageEventsTable
  dm_rooms: DmRoomsTable
  dm_members: DmMembersTable
  dm_messages: DmMessagesTable
  user_blocks: UserBlocksTable
  reports: ReportsTable
  moderation_actions: ModerationActionsTable
  identity_users: IdentityUsersTable
  identity_user_groups: IdentityUserGroupsTable
  identity_codes: IdentityCodesTable
  identity_auth_sessions: IdentityAuthSessionsTable
  identity_refresh_tokens: IdentityRefreshTokensTable
  identity_user_links: IdentityUserLinksTable
  identity_devices: IdentityDevicesTable
  identity_pool_identities: IdentityPoolIdentitiesTable
  identity_credentials: IdentityCredentialsTable
  mail_outbox: MailOutboxTable
  subscriptions: SubscriptionsTable
  charges: ChargesTable
  payment_gateway_charges: PaymentGatewayChargesTable
  payment_webhook_events: PaymentWebhookEventsTable
  storage_buckets: StorageBucketsTable
  storage_objects: StorageObjectsTable
  storage_uploads: StorageUploadsTable
  storage_parts: StoragePartsTable
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type Course = Selectable<CoursesTable>
export type NewCourse = Insertable<CoursesTable>

type Flag = 0 | 1
type Defaulted<T> = ColumnType<T, T | undefined, T>

export type IdentityUserStatus =
  | 'UNCONFIRMED'
  | 'CONFIRMED'
  | 'FORCE_CHANGE_PASSWORD'
  | 'RESET_REQUIRED'
  | 'EXTERNAL_PROVIDER'

export interface IdentityUsersTable {
  sub: string
  username: string
  email: string | null
  email_verified: Defaulted<Flag>
  phone_number: string | null
  phone_number_verified: Defaulted<Flag>
  status: IdentityUserStatus
  enabled: Defaulted<Flag>
  password_salt: string | null
  password_verifier: string | null
  /** JSON object of the other user attributes (name, locale, custom:…). */
  attributes: Defaulted<string>
  /** The verified authenticator-app secret, sealed (see user-pool/mfa/totp-secrets.ts). */
  totp_secret: string | null
  totp_enabled: Defaulted<Flag>
  /** Added by migration 0004: a secret from AssociateSoftwareToken not yet verified, sealed. */
  totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>
  /** Added by migration 0004: the last TOTP time step accepted (codes are single-use). */
  totp_last_used_step: ColumnType<number | null, number | null | undefined, number | null>
  sms_mfa_enabled: Defaulted<Flag>
  preferred_mfa: 'SOFTWARE_TOKEN_MFA' | 'SMS_MFA' | null
  failed_sign_ins: Defaulted<number>
  locked_until: EpochMs | null
  /** Added by migration 0003: failures older than the lockout window are forgotten. */
  last_failed_sign_in_at: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>
  /** Added by migration 0003: when an administrator's temporary password stops working. */
  temporary_password_expires_at: ColumnType<
    EpochMs | null,
    EpochMs | null | undefined,
    EpochMs | null
  >
  tokens_valid_after: Defaulted<EpochMs>
  created_at: EpochMs
  updated_at: EpochMs
}

export interface IdentityUserGroupsTable {
  sub: string
  group_name: string
}

export interface IdentityCodesTable {
  id: string
  sub: string
  purpose: string
  code_hash: string
  destination: string
  attempts: Defaulted<number>
  expires_at: EpochMs
  created_at: EpochMs
}

export interface IdentityAuthSessionsTable {
  id_hash: string
  sub: string | null
  challenge: string
  /** JSON of what the next step needs (SRP values, pending tokens' context…). */
  state: string
  expires_at: EpochMs
  created_at: EpochMs
  /** Added by migration 0004: wrong codes answered under this session so far. */
  attempts: Defaulted<number>
}

export interface IdentityRefreshTokensTable {
  token_hash: string
  sub: string
  client_id: string
  origin_jti: string
  device_key: string | null
  auth_time: EpochMs
  expires_at: EpochMs
  revoked_at: EpochMs | null
  created_at: EpochMs
  /** Added by migration 0006: the OAuth scopes of a hosted sign-in (null for the API's). */
  scope: ColumnType<string | null, string | null | undefined, string | null>
}

/** Added by migration 0006: an external identity (Google's `sub`) that signs in as an account. */
export interface IdentityUserLinksTable {
  provider_name: string
  provider_user_id: string
  sub: string
  created_at: EpochMs
}

export interface IdentityDevicesTable {
  /** `{region}_{uuid}`, as Cognito makes them. */
  device_key: string
  sub: string
  device_group_key: string
  /** The device's SRP salt and verifier (hex), set by ConfirmDevice; null until then. */
  password_salt: string | null
  password_verifier: string | null
  name: string | null
  remembered_status: 'remembered' | 'not_remembered'
  created_at: EpochMs
  last_modified_at: EpochMs
  last_authenticated_at: EpochMs | null
  /** Added by migration 0005: the address of the device's last sign-in. */
  last_ip_used: string | null
}

export interface IdentityPoolIdentitiesTable {
  identity_id: string
  /** `{issuer without scheme}|{sub}` for signed-in identities; null for guests. */
  login: string | null
  created_at: EpochMs
  last_used_at: EpochMs
}

export interface IdentityCredentialsTable {
  access_key_id: string
  identity_id: string
  secret_ciphertext: string
  session_token_hash: string
  authenticated: Flag
  expires_at: EpochMs
  created_at: EpochMs
}

export type PaidPlanIdColumn = 'premium-monthly' | 'premium-yearly'
export type SubscriptionStatusColumn = 'active' | 'cancel_at_period_end' | 'past_due' | 'canceled'

/** Added by migration 0025: a learner's paid plan, the single source of premium. */
export interface SubscriptionsTable {
  id: string
  user_id: string
  plan_id: PaidPlanIdColumn
  next_plan_id: PaidPlanIdColumn | null
  status: SubscriptionStatusColumn
  current_period_start: EpochMs
  current_period_end: EpochMs
  past_due_since: EpochMs | null
  last_attempt_at: EpochMs | null
  gateway: 'embedded' | 'stripe'
  payment_method: string | null
  gateway_customer: string | null
  gateway_subscription: string | null
  card_brand: string | null
  card_last4: string | null
  card_exp_month: number | null
  card_exp_year: number | null
  /** Added by migration 0027: when the last Stripe event applied to this row happened. */
  gateway_event_at: EpochMs | null
  created_at: EpochMs
  updated_at: EpochMs
}

/** Added by migration 0025: every charge asked of a gateway (billing history, idempotency). */
export interface ChargesTable {
  id: string
  user_id: string
  plan_id: PaidPlanIdColumn
  kind: 'subscribe' | 'renewal'
  amount_yen: number
  tax_yen: number
  period_start: EpochMs
  period_end: EpochMs
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed'
  failure_code: string | null
  card_brand: string | null
  card_last4: string | null
  payment_method: string | null
  idempotency_key: string
  gateway_charge: string | null
  receipt_number: string | null
  created_at: EpochMs
  updated_at: EpochMs
}

/** Added by migration 0025: the embedded test gateway's own ledger (server/payments). */
export interface PaymentGatewayChargesTable {
  idempotency_key: string
  charge_id: string
  payment_method: string
  amount_yen: number
  outcome: string
  created_at: EpochMs
}

/** Added by migration 0025: Stripe webhook events already applied. */
export interface PaymentWebhookEventsTable {
  id: string
  type: string
  received_at: EpochMs
}

export interface MailOutboxTable {
  id: string
  to_address: string
  subject: string
  text_body: string
  html_body: string | null
  attempts: Defaulted<number>
  last_error: string | null
  sent_at: EpochMs | null
  created_at: EpochMs
}

// The disk object store's index (server/storage/backends/fs). JSON columns hold the
// `ObjectHeaders`, the `x-amz-meta-*` map, a `StoredChecksum` and the part sizes.

export interface StorageBucketsTable {
  name: string
  created_at: EpochMs
}

export interface StorageObjectsTable {
  bucket: string
  key: string
  /**
   * The content item holding the object (a file's name under the store's directory, never
   * derived from the key); for an object read from its parts, the first part's.
   */
  file_id: string
  size: number
  etag: string
  headers: string
  metadata: string
  owner: string
  checksum: string | null
  part_sizes: string | null
  /** JSON array of the parts' content items in order, when the object is read from them. */
  part_files: string | null
  /** Added by migration 0015: the multipart upload that completed the object, if one did. */
  upload_id: string | null
  /** Added by migration 0015: JSON array of the parts' checksums (or null each), in order. */
  part_checksums: string | null
  last_modified: EpochMs
}

export interface StorageUploadsTable {
  upload_id: string
  bucket: string
  key: string
  headers: string
  metadata: string
  owner: string
  initiated: EpochMs
}

export interface StoragePartsTable {
  upload_id: string
  part_number: number
  file_id: string
  size: number
  etag: string
  checksum: string | null
  last_modified: EpochMs
}
