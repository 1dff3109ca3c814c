// Secret props (`secret: true`): sealed at rest, opened only for the sandbox, masked in responses.
import type { ConfigurableProp } from '../../contract/component-shape';
import type { SecretBox } from '../../store/secrets';

/** What responses show in place of a secret value; sending it back in an update keeps the value. */
export const MASK = '********';

const secretNames = (props: readonly ConfigurableProp[]) => new Set(props.filter((p) => p.secret).map((p) => p.name));

/** Seals secret values for storage; a masked value in an update keeps the previously stored one. */
export function sealSecrets(props: readonly ConfigurableProp[], values: Record<string, unknown>, box: SecretBox, previous: Record<string, unknown> = {}): Record<string, unknown> {
  const secret = secretNames(props);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (!secret.has(name) || typeof value !== 'string') out[name] = value;
    else out[name] = value === MASK && name in previous ? previous[name] : box.seal(value);
  }
  return out;
}

/** Opens sealed secret values for the sandbox. */
export function openSecrets(props: readonly ConfigurableProp[], stored: Record<string, unknown>, box: SecretBox): Record<string, unknown> {
  const secret = secretNames(props);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(stored)) out[name] = secret.has(name) && typeof value === 'string' ? box.open(value) : value;
  return out;
}

/** Replaces secret values with the mask for responses. */
export function maskSecrets(props: readonly ConfigurableProp[], stored: Record<string, unknown>): Record<string, unknown> {
  const secret = secretNames(props);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(stored)) out[name] = secret.has(name) ? MASK : value;
  return out;
}
