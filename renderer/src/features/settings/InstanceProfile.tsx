import { desktop } from '../../app/desktop';
import { ProfileForm } from './ProfileForm';

/** The instance profile: a form in the desktop app (its window can show a remote instance); a note in a browser. */
export function InstanceProfile() {
  const bridge = desktop();
  if (bridge) return <ProfileForm bridge={bridge} />;
  return (
    <section className="card" aria-labelledby="profile-h">
      <h2 id="profile-h">Instance profile</h2>
      <p className="muted" data-testid="profile-browser-note">
        Remote instance profiles are set in the desktop app, whose window can show another Spout instance (its URL and API key) instead of its own. In a browser, open a sign-in link of the other instance (<code>spout ui</code> there, or <code>spout ui -p NAME</code>); the CLI reaches another
        instance with <code>spout login --api-url URL --api-key KEY</code>.
      </p>
    </section>
  );
}
