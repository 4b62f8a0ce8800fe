import { MfaSettings } from './mfa-settings.tsx'
import { RememberedDevices } from './remembered-devices.tsx'
import { Section, Upcoming } from './section.tsx'

/** The authenticator app (TOTP), or what it will be where the pool cannot do it yet. */
export function MfaSection({ username, available }: { username: string; available: boolean }) {
  return (
    <Section title="二段階認証（認証アプリ）" id="mfa">
      {available ? (
        <MfaSettings username={username} />
      ) : (
        <Upcoming>
          <p>
            ログインのときに、パスワードに加えて認証アプリ（Google Authenticator
            など）に表示される6桁のコードを入力する設定です。パスワードが他人に知られても、ログインされにくくなります。
          </p>
          <p className="mt-2">
            この設定は準備中です。使えるようになると、ここに QR
            コードが表示され、アプリで読み取るだけで設定できます。
          </p>
        </Upcoming>
      )}
    </Section>
  )
}

/** The remembered devices, or what they will be where the pool cannot do them yet. */
export function DevicesSection({ available }: { available: boolean }) {
  return (
    <Section title="記憶したデバイス" id="devices">
      {available ? (
        <RememberedDevices />
      ) : (
        <Upcoming>
          <p>
            二段階認証を使うとき、よく使うパソコンやスマートフォンを記憶して、次からコードの入力を省けるようにする設定です。記憶した端末の一覧を確認したり、使わなくなった端末を削除したりできます。
          </p>
          <p className="mt-2">二段階認証と同時に使えるようになります。</p>
        </Upcoming>
      )}
    </Section>
  )
}
