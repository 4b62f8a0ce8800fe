import { z } from 'zod'
import { pageOf } from '#features/content-views.ts'
import { draftEntry } from '#features/drafts/draft-views.ts'
import { followCard, followState, publishedItem } from '#features/follows/follow-views.ts'
import { historyEntry, historySummary } from '#features/history/history-views.ts'
import { pageQuery } from '#features/pagination.ts'
import { searchQuery } from '#features/search/search-query.ts'
import { searchResult } from '#features/search/search-result.ts'
import { profileFields } from '#features/users/profile-input.ts'
import { blockState, ownProfile, profileHeader } from '#features/users/profile-views.ts'
import { GUEST_CACHE_SECONDS, pathId, route } from './contract.ts'

const userParams = z.object({ username: pathId })

/** Profiles, follows, the home feed, /histories, one's drafts and search. */
export const peopleRoutes = {
  profile: route({
    method: 'GET',
    path: '/users/:username',
    summary: 'プロフィール（フォロワー数・フォロー数・公開数）',
    params: userParams,
    status: 200,
    response: profileHeader,
  }),
  followState: route({
    method: 'GET',
    path: '/users/:username/follow',
    summary: 'フォローしているかとフォロー数（ゲストは following: false）',
    params: userParams,
    status: 200,
    response: followState,
  }),
  follow: route({
    method: 'POST',
    path: '/users/:username/follow',
    summary: 'フォローする（自分自身は 400、フォロー済みは 409）',
    signIn: true,
    params: userParams,
    status: 200,
    response: followState,
  }),
  unfollow: route({
    method: 'DELETE',
    path: '/users/:username/follow',
    summary: 'フォローをやめる（フォローしていなければ 409）',
    signIn: true,
    params: userParams,
    status: 200,
    response: followState,
  }),
  blockState: route({
    method: 'GET',
    path: '/users/:username/block',
    summary: 'このユーザーをブロックしているか',
    signIn: true,
    params: userParams,
    status: 200,
    response: blockState,
  }),
  block: route({
    method: 'PUT',
    path: '/users/:username/block',
    summary: 'ブロックする（メッセージ・フォロー・コメントが届かなくなる。相手には知らされない）',
    signIn: true,
    params: userParams,
    status: 200,
    response: blockState,
  }),
  unblock: route({
    method: 'DELETE',
    path: '/users/:username/block',
    summary: 'ブロックを解除する',
    signIn: true,
    params: userParams,
    status: 200,
    response: blockState,
  }),
  followers: route({
    method: 'GET',
    path: '/users/:username/followers',
    summary: 'フォロワーの一覧',
    params: userParams,
    query: pageQuery,
    status: 200,
    response: pageOf(followCard),
  }),
  following: route({
    method: 'GET',
    path: '/users/:username/following',
    summary: 'フォロー中のユーザーの一覧',
    params: userParams,
    query: pageQuery,
    status: 200,
    response: pageOf(followCard),
  }),
  feed: route({
    method: 'GET',
    path: '/feed',
    summary: 'フォロー中のユーザーの新着コンテンツ',
    signIn: true,
    query: pageQuery,
    status: 200,
    response: pageOf(publishedItem),
  }),
  histories: route({
    method: 'GET',
    path: '/histories',
    summary: '自分の学習履歴（新しい順）',
    signIn: true,
    query: pageQuery,
    status: 200,
    response: pageOf(historyEntry),
  }),
  historySummary: route({
    method: 'GET',
    path: '/histories/summary',
    summary: '連続学習日数・合計・日ごとのヒートマップ（自分のタイムゾーン）',
    signIn: true,
    status: 200,
    response: historySummary,
  }),
  ownProfile: route({
    method: 'GET',
    path: '/profile',
    summary: '自分のプロフィール設定',
    signIn: true,
    status: 200,
    response: ownProfile,
  }),
  updateProfile: route({
    method: 'PUT',
    path: '/profile',
    summary: 'プロフィール（表示名・自己紹介・リンク・タイムゾーン）を更新',
    signIn: true,
    body: profileFields,
    status: 200,
    response: ownProfile,
  }),
  drafts: route({
    method: 'GET',
    path: '/drafts',
    summary: '自分の下書き（すべての種類）',
    signIn: true,
    status: 200,
    response: z.object({ items: z.array(draftEntry) }),
  }),
  search: route({
    method: 'GET',
    path: '/search',
    summary: '公開中のコンテンツを全文検索',
    query: searchQuery,
    status: 200,
    guestCacheSeconds: GUEST_CACHE_SECONDS,
    response: z.object({ items: z.array(searchResult) }),
  }),
}
