/**
 * Every error code the site answers with, in one place: the HTTP status it goes with and the
 * Japanese message shown when the caller has nothing more particular to say. Plain data, so
 * features, /api, the realtime endpoint, the OpenAPI document and the browser all read it.
 */
export const errorCatalogue = {
  BAD_REQUEST: { status: 400, message: '送信された内容を読み取れませんでした' },
  VALIDATION_FAILED: { status: 400, message: '入力内容に誤りがあります' },
  BAD_SIGNATURE: { status: 400, message: '署名を確認できませんでした' },
  SIGN_IN_REQUIRED: { status: 401, message: 'この操作にはログインが必要です' },
  FORBIDDEN: { status: 403, message: 'この操作を行う権限がありません' },
  LOCKED: { status: 403, message: 'この内容はプレミアムプランで利用できます' },
  CROSS_SITE_REQUEST: {
    status: 403,
    message: '他のサイトからの操作は受け付けられません。テックラボのページから操作してください。',
  },
  NOT_FOUND: { status: 404, message: '見つかりませんでした' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'この方法では操作できません' },
  STALE_REVISION: {
    status: 409,
    message:
      'ほかのタブまたは端末で先に保存されています。ページを再読み込みして最新の内容を確認してから、もう一度保存してください',
  },
  CONFLICT: { status: 409, message: 'いまの状態ではこの操作はできません' },
  PAYLOAD_TOO_LARGE: { status: 413, message: '送信する内容が大きすぎます' },
  UPGRADE_REQUIRED: { status: 426, message: 'WebSocket で接続してください' },
  RATE_LIMITED: {
    status: 429,
    message: '短い時間に操作が多すぎます。少し待ってからもう一度お試しください',
  },
  INTERNAL: {
    status: 500,
    message: 'サーバーでエラーが発生しました。時間をおいてもう一度お試しください',
  },
  UNAVAILABLE: {
    status: 503,
    message: 'いまは利用できません。しばらく待ってからもう一度お試しください',
  },
  BUSY: { status: 503, message: '混み合っています。少し待ってからもう一度お試しください' },
  SHUTTING_DOWN: { status: 503, message: 'サーバーを再起動しています' },
  REALTIME_UNAVAILABLE: { status: 503, message: 'リアルタイム通知は一時的に利用できません' },
  INSUFFICIENT_STORAGE: {
    status: 507,
    message:
      'サーバーの保存領域が不足しているため保存できませんでした。時間をおいてもう一度お試しください',
  },
} as const satisfies Record<string, { status: number; message: string }>

export type ErrorCode = keyof typeof errorCatalogue

/** The catalogue's codes, for schemas that list them (the OpenAPI document's error answer). */
export const errorCodes = Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]]

/** Japanese messages per field, keyed by the field's path (`title`, `tags.0`…). */
export type FieldErrors = Record<string, string[]>
