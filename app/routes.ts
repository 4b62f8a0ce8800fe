import { index, layout, prefix, type RouteConfig, route } from '@react-router/dev/routes'

/**
 * Every route of the seed's table, grouped by the layout it renders in:
 * `default` for public reading, `default-auth` for sign-in screens, `general` for the app
 * shell. Each has its own module: the placeholders of decision 004 are all gone.
 */

export default [
  layout('layouts/default.tsx', [
    index('routes/home.tsx'),
    route('example', 'routes/example.tsx'),
    route(':user', 'routes/profiles/layout.tsx', [
      index('routes/profiles/overview.tsx'),
      route('followers', 'routes/profiles/follows.tsx', { id: 'profile-followers' }),
      route('following', 'routes/profiles/follows.tsx', { id: 'profile-following' }),
      route('labs', 'routes/profiles/labs.tsx', { id: 'profile-labs' }),
      route('labs_stories', 'routes/profiles/labs.tsx', { id: 'profile-labs-stories' }),
      route('studies', 'routes/profiles/studies.tsx', { id: 'profile-studies' }),
    ]),
    route(':user/courses/:id', 'routes/courses/course.tsx', [
      route('lessons/:lessonId', 'routes/courses/lesson.tsx'),
    ]),
    route(':user/labs/:id', 'routes/labs/lab.tsx', { id: 'lab-detail' }),
    route(':user/labs_stories/:id', 'routes/labs/story.tsx', { id: 'lab-story-detail' }),
    route(':user/studies/:id', 'routes/studies/study.tsx', { id: 'study-detail' }),
    route('tags/:tag', 'routes/tags/tag.tsx'),
    route('*', 'routes/not-found.tsx'),
  ]),

  layout('layouts/default-auth.tsx', [
    ...prefix('auth', [
      route('callback_google', 'routes/auth/callback-google.tsx'),
      route('confirm', 'routes/auth/confirm.tsx'),
      route('forgotPassword', 'routes/auth/forgot-password.tsx'),
      route('forgotPasswordVerify', 'routes/auth/forgot-password-verify.tsx'),
      route('setupUsername', 'routes/auth/setup-username.tsx'),
      route('signin', 'routes/auth/signin.tsx'),
      route('signout', 'routes/auth/signout.tsx'),
      route('signup', 'routes/auth/signup.tsx'),
    ]),
  ]),

  layout('layouts/general.tsx', [
    route('courses', 'routes/courses/catalogue.tsx'),
    route('privacy', 'routes/legal/privacy.tsx'),
    route('search', 'routes/search.tsx'),
    route('settings', 'routes/settings.tsx'),
    route('terms', 'routes/legal/terms.tsx'),
    route('contact', 'routes/contact/contact.tsx'),
    route('contact/sent', 'routes/contact/sent.tsx'),
    route('admin', 'routes/admin/layout.tsx', [
      index('routes/admin/index.tsx'),
      route('contact', 'routes/admin/contact-list.tsx'),
      route('contact/:id', 'routes/admin/contact-message.tsx'),
      route('reports', 'routes/admin/reports-list.tsx'),
      route('reports/:kind/:id', 'routes/admin/reports-item.tsx'),
    ]),
    route('dms', 'routes/dms/list.tsx'),
    route('dms/:id', 'routes/dms/room.tsx'),
    route('drafts', 'routes/drafts.tsx'),
    route('exercises', 'routes/exercises/list.tsx', { id: 'exercises' }),
    route('histories', 'routes/histories.tsx'),
    route('notifications', 'routes/notifications.tsx'),
    route('labs', 'routes/labs/list.tsx', { id: 'labs' }),
    route('labs_stories', 'routes/labs/list.tsx', { id: 'labs-stories' }),
    route('plans', 'routes/plans/plans.tsx'),
    route('plans/checkout', 'routes/plans/checkout.tsx'),
    route('plans/checkout/:chargeId/authenticate', 'routes/plans/authenticate.tsx'),
    route('studies', 'routes/studies/list.tsx'),
    route(':user/courses/create', 'routes/courses/editor.tsx', { id: 'course-create' }),
    route(':user/courses/:id?/edit', 'routes/courses/editor.tsx', { id: 'course-edit' }),
    route(':user/labs/create', 'routes/labs/lab-editor.tsx', { id: 'lab-create' }),
    route(':user/labs/:id/edit', 'routes/labs/lab-editor.tsx', { id: 'lab-edit' }),
    route(':user/labs_stories/create', 'routes/labs/story-editor.tsx', { id: 'lab-story-create' }),
    route(':user/labs_stories/:id/edit', 'routes/labs/story-editor.tsx', { id: 'lab-story-edit' }),
    route(':user/studies/create', 'routes/studies/editor.tsx', { id: 'study-create' }),
    route(':user/studies/:id/edit', 'routes/studies/editor.tsx', { id: 'study-edit' }),
    route(':user/studies/:id/exercises', 'routes/exercises/study-exercises.tsx'),
    route(':user/studies/:id/exercises/create', 'routes/exercises/question-edit.tsx', {
      id: 'question-create',
    }),
    route(':user/studies/:id/exercises/edit', 'routes/exercises/exercises-edit.tsx'),
    route(':user/studies/:id/exercises/:questionId/edit', 'routes/exercises/question-edit.tsx', {
      id: 'question-edit',
    }),
  ]),
] satisfies RouteConfig
