// What a prop form asks the service: a page of a prop's options, and the props `additionalProps`
// gives for the values so far.
import type { ConfigurePropRequest, ConfigureTarget } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { api } from '../../api/v1';

/** One page of a prop's options (`POST /v1/components/configure`). */
export const loadOptions = (request: ConfigurePropRequest) => api.configureProp(request);

/** The component's props for these values (`POST /v1/components/props`). */
export const reloadProps = (target: ConfigureTarget, configured: Record<string, unknown>): Promise<ConfigurableProp[]> => api.reloadProps(target, configured);
